// qroute dashboard behaviour that htmx does not cover. Loaded as a file (the CSP allows no inline script);
// everything works without it except copying to the clipboard.
(function () {
  'use strict';
  // Copy buttons: <button type="button" data-copy="#element-id">Copy</button> copies that element's text or value.
  document.addEventListener('click', function (event) {
    var button = event.target instanceof Element ? event.target.closest('[data-copy]') : null;
    if (!button) return;
    var source = document.querySelector(button.getAttribute('data-copy'));
    if (!source) return;
    var text = 'value' in source && source.value ? source.value : source.textContent.trim();
    var label = button.textContent;
    navigator.clipboard.writeText(text).then(
      function () { button.textContent = 'Copied'; setTimeout(function () { button.textContent = label; }, 1500); },
      function () { button.textContent = 'Select and copy'; },
    );
  });
  // The viewer's time zone, for analytics buckets: sent with every htmx request and kept in a cookie for full loads.
  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone) document.cookie = 'qroute_tz=' + encodeURIComponent(zone) + '; path=/; SameSite=Lax; max-age=31536000';
  } catch (e) { /* an old browser: UTC */ }
})();
// Controls that need JavaScript (a list's "Add another" button, which htmx answers) are hidden in the markup,
// so a page without JavaScript shows no dead button; shown here, since this script runs.
(function () {
  'use strict';
  var controls = document.querySelectorAll('[data-needs-js]');
  for (var i = 0; i < controls.length; i++) controls[i].hidden = false;
})();
