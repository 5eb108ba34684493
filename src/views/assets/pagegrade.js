/* global document, window, HTMLFormElement, EventSource */
// Pagegrade pages: the only script. Forms marked data-busy show their state and disable their
// buttons while the server works (an audit takes seconds); forms marked data-confirm ask first.
// A running batch's progress (data-batch-events) follows the page's own event stream.
(function () {
  'use strict';
  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    var question = form.getAttribute('data-confirm');
    if (question && !window.confirm(question)) {
      event.preventDefault();
      return;
    }
    var busy = form.getAttribute('data-busy');
    if (!busy) return;
    if (form.getAttribute('data-submitting') === '1') {
      event.preventDefault();
      return;
    }
    form.setAttribute('data-submitting', '1');
    form.setAttribute('aria-busy', 'true');
    var buttons = form.querySelectorAll('button');
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].disabled = true;
    }
    var status = form.querySelector('.busy');
    if (status) {
      status.textContent = busy;
      status.hidden = false;
    }
  });
  // a typed password means Password: the privacy select of the same form follows it, and
  // choosing another privacy clears the password (the server applies the same rule)
  document.addEventListener('input', function (event) {
    var field = event.target;
    if (!field || field.name !== 'password' || !field.form || field.value === '') return;
    var select = field.form.querySelector('select[name="privacy"]');
    if (select) select.value = '2';
  });
  document.addEventListener('change', function (event) {
    var select = event.target;
    if (!select || select.name !== 'privacy' || !select.form || select.value === '2') return;
    var password = select.form.querySelector('input[name="password"]');
    if (password) password.value = '';
  });
  // a logo file (the branding page) is read here into a data: URL sent with the form, as the
  // form has no multipart upload; too large a file is refused at once, beside the field
  document.addEventListener('change', function (event) {
    var input = event.target;
    if (!input || !input.getAttribute || !input.getAttribute('data-logo-field')) return;
    var target = document.getElementById(input.getAttribute('data-logo-field'));
    var error = input.parentNode.querySelector('[data-logo-error]');
    var max = Number(input.getAttribute('data-max-bytes'));
    var file = input.files && input.files[0];
    if (!target) return;
    target.value = '';
    if (error) error.hidden = true;
    input.setCustomValidity('');
    if (!file) return;
    if (file.size > max) {
      var message =
        'The logo must be at most ' +
        Math.round(max / 1024) +
        ' KB; this one is ' +
        Math.ceil(file.size / 1024) +
        ' KB.';
      input.setCustomValidity(message);
      if (error) {
        error.textContent = message;
        error.hidden = false;
      }
      return;
    }
    var reader = new window.FileReader();
    reader.onload = function () {
      target.value = String(reader.result || '');
    };
    reader.readAsDataURL(file);
  });
  // print buttons work only with this script, so they are shown by it
  var printButtons = document.querySelectorAll('[data-print]');
  for (var p = 0; p < printButtons.length; p++) {
    printButtons[p].hidden = false;
    printButtons[p].addEventListener('click', function () {
      window.print();
    });
  }
  // a running batch: its progress bar and counts follow the server's events (same origin);
  // when it ends the page reloads to show the summary. Without this script the page reloads
  // itself every few seconds (<noscript> refresh) and has a Refresh link.
  var live = document.querySelector('[data-batch-events]');
  var STATUS_LABELS = {
    queued: 'Queued',
    running: 'Running',
    done: 'Done',
    cancelled: 'Cancelled',
    failed: 'Failed',
  };
  if (live && typeof EventSource === 'function') {
    var source = new EventSource(live.getAttribute('data-batch-events'));
    var bar = live.querySelector('progress');
    var note = live.querySelector('[data-live-note]');
    var show = function (event) {
      var d;
      try {
        d = JSON.parse(event.data);
      } catch {
        return;
      }
      var counts = live.querySelectorAll('[data-count]');
      for (var c = 0; c < counts.length; c++) {
        var key = counts[c].getAttribute('data-count');
        if (typeof d[key] === 'number') counts[c].textContent = String(d[key]);
      }
      if (bar) {
        bar.max = Math.max(1, d.discovered);
        bar.value = d.audited + d.failed;
        bar.textContent = d.audited + d.failed + ' of ' + d.discovered;
      }
      live.setAttribute('data-status', d.status);
      // the status badges: "Queued" becomes "Running" as soon as the batch starts
      var badges = document.querySelectorAll('.page-head .batch-status');
      for (var s = 0; s < badges.length; s++) {
        if (STATUS_LABELS[d.status]) badges[s].textContent = STATUS_LABELS[d.status];
        badges[s].className = 'batch-status batch-status--' + d.status;
      }
      refreshPages(d.audited + d.failed);
    };
    // the pages table: fetched again (this page, with its filters) when pages have finished,
    // at most every 2 s, so that it fills while the batch runs
    var shownFinished = -1;
    var lastFetch = 0;
    var fetching = false;
    var refreshPages = function (finished) {
      var title = document.getElementById('pages-title');
      var section = title ? title.closest('section') : null;
      if (!section || finished === shownFinished || fetching || typeof window.fetch !== 'function') return;
      var wait = lastFetch + 2000 - Date.now();
      if (wait > 0) {
        window.setTimeout(function () {
          refreshPages(finished);
        }, wait);
        return;
      }
      fetching = true;
      lastFetch = Date.now();
      window
        .fetch(window.location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } })
        .then(function (res) {
          return res.ok ? res.text() : null;
        })
        .then(function (text) {
          if (text === null) return;
          var freshTitle = new window.DOMParser()
            .parseFromString(text, 'text/html')
            .getElementById('pages-title');
          var fresh = freshTitle ? freshTitle.closest('section') : null;
          if (fresh) {
            section.innerHTML = fresh.innerHTML;
            shownFinished = finished;
          }
        })
        .catch(function () {})
        .then(function () {
          fetching = false;
        });
    };
    source.addEventListener('progress', show);
    source.addEventListener('end', function (event) {
      show(event);
      source.close();
      if (note) note.textContent = 'The batch has ended; loading its summary…';
      window.location.reload();
    });
  }
  // a page restored from the back/forward cache gets its buttons back
  window.addEventListener('pageshow', function () {
    var forms = document.querySelectorAll('form[data-submitting]');
    for (var i = 0; i < forms.length; i++) {
      var form = forms[i];
      form.removeAttribute('data-submitting');
      form.removeAttribute('aria-busy');
      var buttons = form.querySelectorAll('button');
      for (var j = 0; j < buttons.length; j++) buttons[j].disabled = false;
      var status = form.querySelector('.busy');
      if (status) status.hidden = true;
    }
  });
})();
