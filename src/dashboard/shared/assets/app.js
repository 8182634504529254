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
// The navigation's <details> (layout.tsx): on a laptop the sections are a row of links, so the <details> stays open
// (app.css shows them even closed where the browser has ::details-content; this covers the others). On a phone it
// starts closed, as a "Menu" button.
(function () {
  'use strict';
  var menu = document.querySelector('.site-menu');
  if (!menu || !window.matchMedia) return;
  var wide = window.matchMedia('(min-width: 1024px)');
  function follow() { menu.open = wide.matches; }
  follow();
  if (wide.addEventListener) wide.addEventListener('change', follow);
})();
// Error summary (WCAG 3.3.1, 2.4.3): a refused form comes back with its fields marked aria-invalid and each message in
// the element its aria-describedby names (<id>-error: FormField, the type forms' FieldMessages). Here every such form
// gets a summary at its top that links to each field, and focus moves to it, so a keyboard or screen reader user
// starts from the list of problems instead of the top of the page. Runs on load and after each htmx swap.
(function () {
  'use strict';
  var made = 0;
  function summarise(root) {
    var forms = root.tagName === 'FORM' ? [root] : root.querySelectorAll('form');
    var first = null;
    for (var i = 0; i < forms.length; i++) {
      var form = forms[i];
      var fields = form.querySelectorAll('[aria-invalid="true"]');
      if (fields.length === 0 || form.querySelector('.error-summary')) continue;
      var summary = document.createElement('div');
      summary.className = 'error-summary';
      summary.setAttribute('role', 'group');
      summary.tabIndex = -1;
      var heading = document.createElement('h2');
      heading.id = 'error-summary-' + ++made;
      heading.textContent = fields.length === 1 ? 'One field needs a change' : fields.length + ' fields need a change';
      summary.setAttribute('aria-labelledby', heading.id);
      var list = document.createElement('ul');
      for (var j = 0; j < fields.length; j++) {
        var field = fields[j];
        if (!field.id) continue;
        var link = document.createElement('a');
        link.href = '#' + field.id;
        link.textContent = messageOf(field);
        var item = document.createElement('li');
        item.appendChild(link);
        list.appendChild(item);
      }
      summary.appendChild(heading);
      summary.appendChild(list);
      form.insertBefore(summary, form.firstChild);
      first = first || summary;
    }
    if (first) first.focus();
  }
  /** The field's own message (its "<id>-error" element), else its label with a plain "needs a change". */
  function messageOf(field) {
    var error = document.getElementById(field.id + '-error');
    if (error && error.textContent.trim()) return error.textContent.trim();
    var label = document.querySelector('label[for="' + field.id + '"]');
    return (label ? label.textContent.trim() : field.name) + ': needs a change';
  }
  // A link moves focus into its field (a fragment alone only scrolls), with the field's label in view.
  document.addEventListener('click', function (event) {
    var link = event.target instanceof Element ? event.target.closest('.error-summary a') : null;
    if (!link) return;
    var field = document.getElementById(link.getAttribute('href').slice(1));
    if (!field) return;
    event.preventDefault();
    var label = document.querySelector('label[for="' + field.id + '"]');
    (label || field).scrollIntoView({ block: 'center' });
    field.focus({ preventScroll: true });
  });
  summarise(document);
  document.addEventListener('htmx:afterSettle', function (event) { summarise(event.detail.elt); });
})();
