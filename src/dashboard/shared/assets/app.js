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
  // As the browser names it ("Asia/Calcutta"): the server reads it only through resolveTimeZone, which shows the
  // current name ("Asia/Kolkata", src/time-zone-names.ts), so the table stays in one place.
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
// Type forms (issue 26): time-zone fields and opening hours.
(function () {
  'use strict';
  var browserZone;
  try { browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (e) { /* an old browser: keep the server's guess */ }
  // The browser names renamed zones by their old names ("Asia/Calcutta"); the zone list (type-forms/text-input.tsx)
  // carries the server's table of current ones (src/time-zone-names.ts), so a new form shows "Asia/Kolkata".
  try {
    var zoneList = document.getElementById('time-zones');
    var renamed = JSON.parse((zoneList && zoneList.getAttribute('data-renamed')) || '{}');
    if (browserZone && Object.prototype.hasOwnProperty.call(renamed, browserZone)) browserZone = renamed[browserZone];
  } catch (e) { /* no usable table: the browser's name */ }
  // A new event or coupon starts in the browser's zone: the server filled in its guess (the zone cookie, else UTC),
  // replaced here while the field still holds it untouched.
  var guessed = document.querySelectorAll('input[data-zone-guess]');
  for (var i = 0; i < guessed.length; i++) {
    if (browserZone && guessed[i].value === guessed[i].getAttribute('data-zone-guess')) guessed[i].value = browserZone;
  }
  // Enter in a half-typed zone ("europe/ber") completes it when one zone matches, else says so: it never sends
  // the form with a zone the server would refuse. A complete zone (or an empty field, meaning UTC) sends as usual.
  function zonesOf(input) {
    var list = input.list;
    var zones = [];
    if (!list) return zones;
    for (var j = 0; j < list.options.length; j++) zones.push(list.options[j].value);
    return zones;
  }
  document.addEventListener('keydown', function (event) {
    var input = event.target;
    if (event.key !== 'Enter' || !(input instanceof HTMLInputElement) || input.getAttribute('list') !== 'time-zones') return;
    var typed = input.value.trim().toLowerCase().replace(/ /g, '_');
    if (typed === '') return;
    // A zone the browser knows is complete (the server checks with the same Intl rule), listed or not (UTC, or a
    // newer name such as Europe/Kyiv than the server's list has).
    try {
      new Intl.DateTimeFormat('en', { timeZone: input.value.trim() });
      return;
    } catch (e) { /* not a zone: complete it below */ }
    var zones = zonesOf(input);
    event.preventDefault();
    var matches = zones.filter(function (zone) { return zone.toLowerCase().indexOf(typed) !== -1; });
    if (matches.length === 1) {
      input.value = matches[0];
      input.setCustomValidity('');
      return;
    }
    input.setCustomValidity(matches.length === 0
      ? 'No time zone is called that: choose one from the list, such as Europe/Berlin.'
      : matches.length + ' time zones match: type more, or choose one from the list.');
    input.reportValidity();
  });
  document.addEventListener('input', function (event) {
    if (event.target instanceof HTMLInputElement && event.target.getAttribute('list') === 'time-zones') event.target.setCustomValidity('');
  });
  // Opening hours: "Copy Monday to Tuesday–Friday" puts Monday's times (empty ones too) into the four days after it.
  document.addEventListener('click', function (event) {
    var button = event.target instanceof Element ? event.target.closest('[data-copy-monday]') : null;
    var hours = button && button.closest('.opening-hours');
    if (!hours) return;
    var inputs = hours.querySelectorAll('input[type="time"]');
    for (var k = 0; k < inputs.length; k++) {
      var parts = inputs[k].name.split('/');
      var day = parts[parts.length - 3];
      if (['tuesday', 'wednesday', 'thursday', 'friday'].indexOf(day) === -1) continue;
      parts[parts.length - 3] = 'monday';
      var monday = hours.querySelector('input[name="' + parts.join('/') + '"]');
      if (monday) inputs[k].value = monday.value;
    }
    button.textContent = 'Copied to Tuesday–Friday';
  });
})();
// Gallery (issue 26, type-forms/file-inputs.tsx): Up/Down put the saved images in order by renumbering their
// positions, which the server reads; images just chosen are shown as thumbnails before they are sent, and can be
// put in order or taken out, by rebuilding the file input's list (DataTransfer).
(function () {
  'use strict';
  var THUMB_MAX_BYTES = 15 * 1024 * 1024; // read into a data: URL (the CSP allows no blob:); larger ones show their name
  function renumber(list) {
    var positions = list.querySelectorAll('.gallery-position');
    for (var i = 0; i < positions.length; i++) positions[i].value = String(i + 1);
  }
  function syncPicker(list) {
    var picker = list.parentElement.querySelector('[data-gallery-picker]');
    if (!picker || typeof DataTransfer === 'undefined') return;
    var transfer = new DataTransfer();
    var items = list.children;
    for (var i = 0; i < items.length; i++) if (items[i].galleryFile) transfer.items.add(items[i].galleryFile);
    picker.files = transfer.files;
    list.hidden = items.length === 0;
  }
  function button(text, name, action) {
    var b = document.createElement('button');
    b.type = 'button';
    b.className = 'secondary outline small-button';
    b.setAttribute(action[0], action[1]);
    b.setAttribute('aria-label', name);
    b.textContent = text;
    return b;
  }
  function pendingItem(file) {
    var item = document.createElement('li');
    item.className = 'gallery-item';
    item.galleryFile = file;
    var img = document.createElement('img');
    img.className = 'gallery-thumb';
    img.alt = file.name;
    img.width = 72;
    img.height = 72;
    if (file.size <= THUMB_MAX_BYTES && typeof FileReader !== 'undefined') {
      var reader = new FileReader();
      reader.onload = function () { img.src = String(reader.result); };
      reader.readAsDataURL(file);
    }
    var controls = document.createElement('div');
    controls.className = 'gallery-controls';
    var name = document.createElement('span');
    name.className = 'gallery-name';
    name.textContent = file.name;
    controls.appendChild(name);
    controls.appendChild(button('Up', 'Up: move ' + file.name + ' earlier', ['data-move', 'up']));
    controls.appendChild(button('Down', 'Down: move ' + file.name + ' later', ['data-move', 'down']));
    controls.appendChild(button('Take out', 'Take out ' + file.name, ['data-unpick', '']));
    item.appendChild(img);
    item.appendChild(controls);
    return item;
  }
  document.addEventListener('change', function (event) {
    var picker = event.target;
    if (!(picker instanceof HTMLInputElement) || !picker.hasAttribute('data-gallery-picker')) return;
    var list = picker.parentElement.querySelector('[data-gallery-pending]');
    if (!list) return;
    list.textContent = '';
    for (var i = 0; i < picker.files.length; i++) list.appendChild(pendingItem(picker.files[i]));
    list.hidden = picker.files.length === 0;
  });
  document.addEventListener('click', function (event) {
    var target = event.target instanceof Element ? event.target.closest('[data-move], [data-unpick]') : null;
    if (!target) return;
    var item = target.closest('li');
    var list = item && item.parentElement;
    if (!list) return;
    if (target.hasAttribute('data-unpick')) {
      list.removeChild(item);
      syncPicker(list);
      return;
    }
    var up = target.getAttribute('data-move') === 'up';
    if (up && item.previousElementSibling) list.insertBefore(item, item.previousElementSibling);
    else if (!up && item.nextElementSibling) list.insertBefore(item.nextElementSibling, item);
    else return;
    if (list.hasAttribute('data-gallery')) renumber(list);
    else syncPicker(list);
    target.focus();
  });
})();
