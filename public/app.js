// The provider appends "#_=_" to its redirect (a legacy of its login flow);
// drop it from the address bar so it is not bookmarked or shared.
(function () {
  if (window.location.hash === '#_=_' && window.history && window.history.replaceState) {
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
  }
})();

// Live pages (docs/architecture.md#live-updates): the server says when the feed changed; a button shows
// how many new posts there are and swaps in the fresh first page of the feed. Without script the page
// simply stays as loaded.
(function () {
  var notice = document.querySelector('.live-notice[data-events]');
  if (!notice || !window.EventSource || !window.fetch) return;
  var button = notice.querySelector('button');
  var posts = document.getElementById('feed-posts');
  if (!button || !posts) return;
  var count = 0;

  function show() {
    if (count > 0) button.textContent = count + (count === 1 ? ' new post' : ' new posts') + ' — Show';
    else button.textContent = 'Posts changed — Show';
    button.hidden = false;
  }

  var source = new EventSource(notice.getAttribute('data-events'));
  source.addEventListener('new-posts', function (event) {
    var n = 0;
    try {
      n = JSON.parse(event.data).count;
    } catch {
      // A malformed event counts as a change without a number.
    }
    if (typeof n === 'number' && n > 0 && n < 10000) count += n;
    show();
  });
  source.addEventListener('feed-changed', show);

  button.addEventListener('click', function () {
    button.disabled = true;
    fetch(notice.getAttribute('data-fresh'), { credentials: 'same-origin', headers: { Accept: 'text/html' } })
      .then(function (res) {
        if (!res.ok || res.redirected) throw new Error('not the fragment');
        return res.text();
      })
      .then(function (html) {
        // Rendered by the server with the same escaping as the page itself.
        posts.innerHTML = html;
        count = 0;
        button.hidden = true;
        button.disabled = false;
      })
      .catch(function () {
        window.location.reload();
      });
  });
})();

// Busy state (docs/architecture.md#views): a submitted form's button says it is working and a second
// click sends nothing more; links that wait on Facebook (Connect, Older posts, a Page in the picker)
// show progress. The button is disabled only after the submit event has been dispatched, so the form
// still submits with it. Coming Back to a page kept in the back/forward cache restores everything.
// Without script, buttons and links simply work as they are.
(function () {
  var PROGRESS = 'a[data-progress], .pager a, a[href^="/auth/login"]';

  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!form || form.nodeName !== 'FORM') return;
    if (form.getAttribute('data-busy') === 'true') {
      event.preventDefault();
      return;
    }
    form.setAttribute('data-busy', 'true');
    var buttons = form.querySelectorAll('button[type="submit"], button:not([type])');
    for (var i = 0; i < buttons.length; i++) buttons[i].setAttribute('aria-busy', 'true');
    window.setTimeout(function () {
      if (form.getAttribute('data-busy') !== 'true') return;
      for (var j = 0; j < buttons.length; j++) buttons[j].disabled = true;
    }, 0);
  });

  document.addEventListener('click', function (event) {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    var link = event.target && event.target.closest ? event.target.closest(PROGRESS) : null;
    if (!link || link.getAttribute('target')) return;
    link.setAttribute('aria-busy', 'true');
    link.classList.add('is-loading');
  });

  window.addEventListener('pageshow', function (event) {
    if (!event.persisted) return;
    var forms = document.querySelectorAll('form[data-busy]');
    for (var i = 0; i < forms.length; i++) forms[i].removeAttribute('data-busy');
    var busy = document.querySelectorAll('[aria-busy="true"]');
    for (var j = 0; j < busy.length; j++) {
      busy[j].removeAttribute('aria-busy');
      busy[j].classList.remove('is-loading');
      if (busy[j].nodeName === 'BUTTON') busy[j].disabled = false;
    }
  });
})();
