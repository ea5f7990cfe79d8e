// The provider appends "#_=_" to its redirect (a legacy of its login flow);
// drop it from the address bar so it is not bookmarked or shared.
(function () {
  if (window.location.hash === '#_=_' && window.history && window.history.replaceState) {
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
  }
})();

// The page's language (docs/architecture.md#languages): every word and number the script writes is in it,
// never in the browser's. The time zone stays the browser's.
var PAGE_LANG =
  document.documentElement.getAttribute('data-intl') || document.documentElement.getAttribute('lang') || 'en';

// What this tab wrote itself (docs/architecture.md#live-updates): the server names the comment of a write in the
// event it sends every open tab. The tab that wrote it says nothing of it: the comment it acted on, or, for an event
// that came while its own write was on its way (a reply's, sent before the answer), a comment its answer now
// shows. Such an event waits until that answer is swapped in.
var OWN_WRITES = {
  pending: 0,
  ids: {},
  held: [],
  /** `show` unless `id` is this tab's own news, once no write of this tab is on its way. */
  decide: function (id, show, held) {
    if (this.pending > 0) this.held.push({ id: id, show: show });
    else if (!id || !(this.ids[id] || (held && document.getElementById('comment-' + id)))) show();
  },
  /** A write of this tab has its answer in place: the events it held are decided now. */
  settle: function () {
    this.pending = Math.max(0, this.pending - 1);
    if (this.pending > 0) return;
    var held = this.held.splice(0, this.held.length);
    for (var i = 0; i < held.length; i++) this.decide(held[i].id, held[i].show, true);
  },
};

// Live pages (docs/architecture.md#live-updates): the server says when the feed changed; a button shows
// how many new posts there are and swaps in the fresh first page of the feed. Without script the page
// simply stays as loaded. Its words come with the page: one form per plural category of the language.
(function () {
  var notice = document.querySelector('.live-notice[data-events][data-fresh]');
  if (!notice || !window.EventSource || !window.fetch) return;
  var button = notice.querySelector('button');
  var posts = document.getElementById('feed-posts');
  if (!button || !posts) return;
  var count = 0;
  var forms = {};
  try {
    forms = JSON.parse(notice.getAttribute('data-new-posts') || '{}');
  } catch {
    // Without the forms the notice says only that posts changed.
  }
  var plurals = window.Intl && Intl.PluralRules ? new Intl.PluralRules(PAGE_LANG) : null;
  var numbers = window.Intl && Intl.NumberFormat ? new Intl.NumberFormat(PAGE_LANG) : null;

  function show() {
    var form = count > 0 && plurals ? forms[plurals.select(count)] || forms.other : null;
    if (form) button.textContent = form.replace('#', numbers ? numbers.format(count) : String(count));
    else button.textContent = notice.getAttribute('data-changed');
    button.hidden = false;
  }

  var source = new EventSource(notice.getAttribute('data-events'));
  source.addEventListener('new-posts', function (event) {
    var n = 0;
    var data = {};
    try {
      data = JSON.parse(event.data);
      n = data.count;
    } catch {
      // A malformed event counts as a change without a number.
    }
    // A post this page shows already (it was published from here and the page reloaded with it) is no news.
    if (typeof data.postId === 'string' && document.getElementById('post-' + data.postId)) return;
    if (typeof n === 'number' && n > 0 && n < 10000) count += n;
    show();
  });
  source.addEventListener('feed-changed', show);
  // A new comment changes a post's counts.
  source.addEventListener('new-comment', show);

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

// A post page (docs/architecture.md#post-page): a comment added at the provider shows a button that swaps in the
// post's comments as the server renders them now. Without script the page simply stays as loaded.
(function () {
  var notice = document.querySelector('.live-notice[data-events][data-post]');
  if (!notice || !window.EventSource || !window.fetch || !window.DOMParser) return;
  var button = notice.querySelector('button');
  var section = document.getElementById('comments');
  if (!button || !section) return;
  var postId = notice.getAttribute('data-post');

  var source = new EventSource(notice.getAttribute('data-events'));
  source.addEventListener('new-comment', function (event) {
    var data = {};
    try {
      data = JSON.parse(event.data);
    } catch {
      // Not ours to show.
    }
    if (data.postId !== postId) return;
    OWN_WRITES.decide(typeof data.commentId === 'string' ? data.commentId : undefined, function () {
      button.textContent = 'New comments — Show';
      button.hidden = false;
    });
  });

  button.addEventListener('click', function () {
    button.disabled = true;
    // The newest comments: the post page itself, without a cursor.
    fetch(window.location.pathname, { credentials: 'same-origin', headers: { Accept: 'text/html' } })
      .then(function (res) {
        if (!res.ok || res.redirected) throw new Error('not the post');
        return res.text();
      })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, 'text/html').getElementById('comments');
        if (!fresh) throw new Error('not the post');
        // Everything but the notice itself (whose stream stays open) comes from the server's rendering.
        var keep = section.querySelector('.live-notice');
        Array.prototype.slice.call(section.childNodes).forEach(function (node) {
          if (node !== keep) section.removeChild(node);
        });
        Array.prototype.slice.call(fresh.childNodes).forEach(function (node) {
          if (!(node.classList && node.classList.contains('live-notice')))
            section.appendChild(document.importNode(node, true));
        });
        button.hidden = true;
        button.disabled = false;
      })
      .catch(function () {
        window.location.reload();
      });
  });
})();

// Local time (docs/architecture.md#views): the server writes an exact UTC time into every <time datetime>;
// here it becomes the reader's own time zone, in the page's language, relative when recent ("3 hours ago",
// "yesterday"), with the exact local time on hover. A time marked data-exact sits in a sentence ("On …, ")
// and stays exact, as do the times only screen readers hear (hidden link text, the post page's <h1>), so they
// name the zone people see; the tab's title, which repeats the <h1>'s time, follows it. Without script the
// server's text stays everywhere, in UTC.
(function () {
  if (!window.Intl || !Intl.DateTimeFormat || !document.querySelectorAll) return;
  var exact = new Intl.DateTimeFormat(PAGE_LANG, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });
  var relative = Intl.RelativeTimeFormat ? new Intl.RelativeTimeFormat(PAGE_LANG, { numeric: 'auto' }) : null;
  var MINUTE = 60 * 1000;
  var HOUR = 60 * MINUTE;

  function midnight(date) {
    return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
  }

  function wording(date, now) {
    var ago = now.getTime() - date.getTime();
    // The future (a clock off by a little) and anything older than a week read as the exact time.
    if (!relative || ago < -MINUTE || ago > 7 * 24 * HOUR) return exact.format(date);
    if (ago < MINUTE) return relative.format(0, 'second');
    if (ago < HOUR) return relative.format(-Math.floor(ago / MINUTE), 'minute');
    if (ago < 12 * HOUR || midnight(date) === midnight(now)) return relative.format(-Math.floor(ago / HOUR), 'hour');
    return relative.format(-Math.round((midnight(now) - midnight(date)) / (24 * HOUR)), 'day');
  }

  function localise(root) {
    var now = new Date();
    var times = root.querySelectorAll('time[datetime]');
    for (var i = 0; i < times.length; i++) {
      var date = new Date(times[i].getAttribute('datetime'));
      if (isNaN(date.getTime())) continue;
      // A date that matters as a date (a receipt's) is never made relative.
      var before = times[i].textContent;
      times[i].textContent = times[i].hasAttribute('data-exact') ? exact.format(date) : wording(date, now);
      if (times[i].hasAttribute('data-exact') && before && document.title.indexOf(before) !== -1)
        document.title = document.title.replace(before, times[i].textContent);
      times[i].title = exact.format(date);
    }
  }

  localise(document);
  // Posts the live notice swaps in come with the server's text too.
  var posts = document.getElementById('feed-posts');
  if (posts && window.MutationObserver) {
    new MutationObserver(function () {
      localise(posts);
    }).observe(posts, { childList: true });
  }
})();

// Images from the provider's CDN expire (it answers 403): a failed image becomes a neutral box of the
// same size that says so, instead of a broken-image icon. Errors do not bubble, hence the capture phase;
// images that failed before this script ran are found by their state.
(function () {
  function fallback(img) {
    if (!img.parentNode || img.getAttribute('data-failed') !== null) return;
    img.setAttribute('data-failed', '');
    var box = document.createElement('span');
    box.className = 'img-fallback ' + img.className;
    box.setAttribute('data-label', document.body.getAttribute('data-picture-unavailable') || '');
    var alt = img.getAttribute('alt');
    if (alt) {
      box.setAttribute('role', 'img');
      // "{alt} (not available)" in the page's language, from the page itself.
      var label = document.body.getAttribute('data-unavailable') || '{alt}';
      box.setAttribute('aria-label', label.replace('{alt}', alt));
    } else {
      box.setAttribute('aria-hidden', 'true');
    }
    var width = Number(img.getAttribute('width'));
    var height = Number(img.getAttribute('height'));
    // CSSOM, not a style attribute: allowed by the CSP, which has no 'unsafe-inline'.
    if (width > 0 && height > 0) box.style.aspectRatio = width + ' / ' + height;
    img.parentNode.replaceChild(box, img);
  }

  document.addEventListener(
    'error',
    function (event) {
      var target = event.target;
      if (target && target.tagName === 'IMG') fallback(target);
    },
    true,
  );
  var images = document.images;
  for (var i = images.length - 1; i >= 0; i--) {
    if (images[i].complete && images[i].naturalWidth === 0 && images[i].getAttribute('src')) fallback(images[i]);
  }
})();

// The page's details: open on wide screens (CSS shows them there without script, in browsers that can),
// collapsed behind "About" on narrow ones so the posts come first. "See more" moves focus to the rest.
(function () {
  var details = document.querySelectorAll('details[data-open-wide]');
  if (details.length && window.matchMedia) {
    var wide = window.matchMedia('(min-width: 761px)');
    var apply = function () {
      for (var i = 0; i < details.length; i++) {
        if (wide.matches) details[i].open = true;
        // On a wide screen the summary is only a heading: not a tab stop, and it does not fold the details.
        var summary = details[i].querySelector('summary');
        if (summary) summary.tabIndex = wide.matches ? -1 : 0;
      }
    };
    apply();
    if (wide.addEventListener) wide.addEventListener('change', apply);
    document.addEventListener('click', function (event) {
      var summary =
        event.target && event.target.closest ? event.target.closest('details[data-open-wide] > summary') : null;
      if (summary && wide.matches) event.preventDefault();
    });
  }
  document.addEventListener(
    'toggle',
    function (event) {
      var more = event.target;
      if (!more || !more.classList || !more.classList.contains('more') || !more.open) return;
      var rest = more.querySelector('.rest');
      if (!rest) return;
      rest.setAttribute('tabindex', '-1');
      rest.focus();
    },
    true,
  );
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

// The picker's filter (docs/architecture.md#picker): without script the form asks the server (`?q=`), which
// marks the Pages that do not match `hidden`; here the same happens as the person types. Both compare the
// query with the words the server wrote into `data-search`, folded the same way (src/pages/picker-view.ts).
(function () {
  var input = document.querySelector('input[data-filter]');
  if (!input) return;
  var list = document.querySelector(input.getAttribute('data-filter'));
  var count = document.querySelector(input.getAttribute('data-count'));
  if (!list || !count) return;
  var items = list.querySelectorAll('li[data-search]');
  var total = items.length;

  function fold(text) {
    return text
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
      .join(' ');
  }

  function apply() {
    var query = fold(input.value);
    var shown = 0;
    items.forEach(function (item) {
      var match = query === '' || (' ' + item.getAttribute('data-search')).indexOf(' ' + query) !== -1;
      item.hidden = !match;
      if (match) shown++;
    });
    // The words come with the page, in its language, with {shown}, {total} and {query} to fill in.
    var numbers = window.Intl && Intl.NumberFormat ? new Intl.NumberFormat(PAGE_LANG) : null;
    var say = function (n) {
      return numbers ? numbers.format(n) : String(n);
    };
    if (query === '') count.textContent = count.getAttribute('data-all');
    else
      count.textContent = count
        .getAttribute(shown === 0 ? 'data-none' : 'data-some')
        .replace('{shown}', say(shown))
        .replace('{total}', say(total))
        .replace('{query}', input.value.trim());
    // The address keeps the filter, so reloading or going back shows the same list.
    if (window.history && window.history.replaceState) {
      var url = new URL(window.location.href);
      if (query === '') url.searchParams.delete('q');
      else url.searchParams.set('q', input.value);
      window.history.replaceState(null, '', url.pathname + url.search);
    }
  }

  input.addEventListener('input', apply);
})();

// The post page's actions (docs/architecture.md#writes): a form that writes is sent without a reload. Done, the
// comments are swapped in from the post page the server answers with, and its line on what happened is read out;
// not done, the reason from the server's page shows beside the form, which keeps its text and takes the key the
// server gave it (the same one after no answer: sending it again checks first). Without script the form posts.
(function () {
  if (!window.fetch || !window.DOMParser || !window.FormData || !window.URLSearchParams) return;
  var section = document.getElementById('comments');
  if (!section) return;
  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-write')) return;
    // The post's own actions (edit, delete) change more than the comments: they post the plain way.
    if (!section.contains(form)) return;
    // The busy marking above (data-busy, aria-busy) keeps a second click from sending it again; undone here.
    event.preventDefault();
    var button = form.querySelector('button[type="submit"]');
    var done = function () {
      form.removeAttribute('data-busy');
      if (button) {
        button.removeAttribute('aria-busy');
        button.disabled = false;
      }
    };
    // The comment acted on is this tab's own news; a reply's new comment is found in the answer once swapped in.
    var target = form.querySelector('input[name="target"]');
    if (target && form.querySelector('input[name="do"]:not([value="reply"])')) OWN_WRITES.ids[target.value] = true;
    OWN_WRITES.pending++;
    var settled = false;
    var settle = function () {
      if (settled) return;
      settled = true;
      OWN_WRITES.settle();
    };
    fetch(form.action, {
      method: 'POST',
      body: new URLSearchParams(new FormData(form)),
      credentials: 'same-origin',
      headers: { Accept: 'text/html' },
    })
      .then(function (res) {
        return res.text().then(function (html) {
          return { ok: res.ok, url: res.url, doc: new DOMParser().parseFromString(html, 'text/html') };
        });
      })
      .then(function (answer) {
        var fresh = answer.doc.getElementById('comments');
        if (answer.ok && fresh) {
          swap(fresh, answer.doc, answer.url);
          settle();
          return;
        }
        settle();
        var reason = answer.doc.querySelector('[data-write-reason]');
        var again = answer.doc.querySelector('form[data-write]');
        if (!reason || !again) throw new Error('not ours');
        var shown = form.querySelector('.write-reason');
        if (shown) {
          shown.textContent = reason.textContent;
          shown.hidden = false;
        }
        var key = again.querySelector('input[name="_key"]');
        var ours = form.querySelector('input[name="_key"]');
        if (key && ours) ours.value = key.value;
        var label = again.querySelector('button[type="submit"]');
        if (label && button) button.textContent = label.textContent;
        done();
      })
      .catch(function () {
        settle();
        // Sent the plain way: the same key, so nothing is written twice.
        form.submit();
      });
  });

  function swap(fresh, doc, url) {
    var hash = url.indexOf('#') >= 0 ? url.slice(url.indexOf('#') + 1) : '';
    // The section itself stays (the live notice's script holds it); its contents are the server's rendering.
    while (section.firstChild) section.removeChild(section.firstChild);
    Array.prototype.slice.call(fresh.childNodes).forEach(function (node) {
      section.appendChild(document.importNode(node, true));
    });
    // The server's line on what happened, read out where the page's own notices are.
    var said = doc.querySelector('main .notice[role="status"], .notice[role="status"]');
    var status = document.getElementById('write-status');
    if (said) {
      if (!status) {
        status = document.createElement('p');
        status.id = 'write-status';
        status.className = 'notice';
        status.setAttribute('role', 'status');
        // Before the post's two columns (views/post.ejs), not inside them: there it would take a cell of
        // the grid and push the comments under the post.
        var layout = section.closest('.post-layout') || section;
        layout.parentNode.insertBefore(status, layout);
      }
      status.textContent = said.textContent;
    }
    var target = (hash && document.getElementById(hash)) || document.getElementById('comments-title');
    if (target) {
      target.setAttribute('tabindex', '-1');
      target.focus();
    }
  }
})();

// A new time's fields (views/partials/write-form.ejs) start in UTC, the only zone the server knows of the reader
// (src/pages/scheduled-view.ts); here they start in the browser's own zone, naming the same instant.
(function () {
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return;
  }
  if (!zone) return;
  var pad = function (n) {
    return (n < 10 ? '0' : '') + n;
  };
  Array.prototype.forEach.call(document.querySelectorAll('input[data-epoch]'), function (when) {
    var field = when.form && when.form.querySelector('input[name="zone"]');
    if (!field) return;
    var d = new Date(Number(when.getAttribute('data-epoch')));
    when.value =
      d.getFullYear() +
      '-' +
      pad(d.getMonth() + 1) +
      '-' +
      pad(d.getDate()) +
      'T' +
      pad(d.getHours()) +
      ':' +
      pad(d.getMinutes());
    field.value = zone;
  });
})();

// The composer (docs/architecture.md#publishing): the time zone a person publishes in is the one they chose last,
// which the session keeps; before any choice, the browser's own, when the list has it (or an alias of it). Choosing
// a time chooses "Later". Without script the list starts at UTC and the radio buttons work as they are.
(function () {
  var select = document.querySelector('form[data-composer] select[data-guess-zone]');
  var zone = window.Intl && Intl.DateTimeFormat ? Intl.DateTimeFormat().resolvedOptions().timeZone : '';
  if (select && zone) {
    var found = false;
    for (var i = 0; i < select.options.length; i++) {
      if (select.options[i].value === zone) {
        select.selectedIndex = i;
        found = true;
      }
    }
    if (!found && /^[A-Z][A-Za-z_-]+(\/[A-Z][A-Za-z0-9_+-]*){1,2}$/.test(zone)) {
      var option = document.createElement('option');
      option.textContent = zone;
      select.appendChild(option);
      select.value = zone;
    }
  }
  var forms = document.querySelectorAll('form[data-composer]');
  for (var f = 0; f < forms.length; f++) {
    (function (form) {
      var at = form.querySelector('input[name="at"]');
      var later = form.querySelector('input[name="when"][value="later"]');
      if (at && later)
        at.addEventListener('input', function () {
          if (at.value) later.checked = true;
        });
    })(forms[f]);
  }
})();
