// The provider appends "#_=_" to its redirect (a legacy of its login flow);
// drop it from the address bar so it is not bookmarked or shared.
(function () {
  if (window.location.hash === '#_=_' && window.history && window.history.replaceState) {
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
  }
})();
