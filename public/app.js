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
