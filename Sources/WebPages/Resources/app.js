/* Onward: the web app's one script. Progressive enhancement only. */
(function () {
  'use strict';

  var doc = document;
  var root = doc.documentElement;
  var body = doc.body;

  /* ---------- Small helpers ---------- */

  // A text from the page's string table, with {name} placeholders filled.
  function t(name, values) {
    var text = body.getAttribute('data-t-' + name) || '';
    if (values) {
      Object.keys(values).forEach(function (key) {
        text = text.split('{' + key + '}').join(String(values[key]));
      });
    }
    return text;
  }

  // The one place markup is set: a fragment this server rendered for the page (a live board,
  // a commute's journey), never text from elsewhere.
  function setServerHTML(node, html) {
    node.innerHTML = html;
    paintColours(node);
  }

  // A VAPID key (base64url) as the bytes pushManager.subscribe wants.
  function urlKey(base64) {
    var padded = (base64 + '===').slice(0, base64.length + (4 - base64.length % 4) % 4).replace(/-/g, '+').replace(/_/g, '/');
    var raw = atob(padded), bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  // The service worker's push subscription, made with the server's key when it has none.
  function pushSubscription(registration) {
    return api('GET', '/api/v1/push/key').then(function (key) {
      return registration.pushManager.getSubscription().then(function (existing) {
        return existing || registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: urlKey(key.publicKey) });
      });
    });
  }

  // The browser's push subscription kept as the signed-in person's: what their trips' broadcasts and their watched
  // journeys reach. It asks for notifications, so call it on a tap; resolves true once kept, false when not allowed.
  function subscribeMyPush(csrf) {
    if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return Promise.resolve(false);
    return Notification.requestPermission().then(function (permission) {
      if (permission !== 'granted') return false;
      return navigator.serviceWorker.register('/sw.js').then(function () { return navigator.serviceWorker.ready; }).then(pushSubscription)
        .then(function (subscription) {
          var s = subscription.toJSON();
          return api('PUT', '/api/v1/me/push', { subscription: { endpoint: s.endpoint, keys: s.keys } }, csrf);
        }).then(function () { return true; });
    });
  }
  // Shared with the trip page's script.
  window.Onward = { subscribeMyPush: subscribeMyPush };

  // The account page's photo: read as base64 and sent to updateProfile (a form cannot send JSON).
  var photoInput = doc.querySelector('input[data-profile-photo]');
  if (photoInput) {
    photoInput.addEventListener('change', function () {
      var file = photoInput.files && photoInput.files[0], form = photoInput.form;
      if (!file) return;
      var reader = new FileReader();
      reader.onload = function () {
        var base64 = String(reader.result).split(',')[1] || '';
        fetch('/api/v1/me/profile', { method: 'PUT', credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': form.querySelector('input[name=_csrf]').value },
          body: JSON.stringify({ photo: base64 }) }).then(function (r) { if (r.ok) location.reload(); });
      };
      reader.readAsDataURL(file);
    });
  }

  function el(tag, className, text) {
    var node = doc.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    return node;
  }

  var storage = {
    get: function (key) {
      try { return window.localStorage.getItem(key); } catch (e) { return null; }
    },
    set: function (key, value) {
      try { window.localStorage.setItem(key, value); } catch (e) { /* private mode: fine */ }
    },
    remove: function (key) {
      try { window.localStorage.removeItem(key); } catch (e) { /* ignore */ }
    }
  };

  // Says something to screen readers through the page's polite live region.
  var announceTimer = null;
  function announce(text) {
    var region = doc.getElementById('live-status');
    if (!region || !text) return;
    region.textContent = '';
    clearTimeout(announceTimer);
    // A fresh text node after a pause, so the same words are read again.
    announceTimer = setTimeout(function () { region.textContent = text; }, 100);
  }

  /* ---------- Theme: system, light or dark ---------- */

  var THEMES = ['system', 'light', 'dark'];

  function applyTheme(theme) {
    if (THEMES.indexOf(theme) < 0) theme = 'system';
    root.setAttribute('data-theme', theme);
    doc.querySelectorAll('[data-theme-choice]').forEach(function (link) {
      if (link.getAttribute('data-theme-choice') === theme) link.setAttribute('aria-current', 'true');
      else link.removeAttribute('aria-current');
    });
  }

  function saveTheme(theme) {
    storage.set('onward.theme', theme);
    var secure = location.protocol === 'https:' ? '; Secure' : '';
    doc.cookie = 'theme=' + theme + '; Path=/; Max-Age=31536000; SameSite=Lax' + secure;
  }

  (function initTheme() {
    // The server renders the cookie's theme; a choice only this browser
    // remembers (cookie cleared, say) is applied and written back.
    var stored = storage.get('onward.theme');
    var hasCookie = /(?:^|;\s*)theme=/.test(doc.cookie);
    if (stored && THEMES.indexOf(stored) >= 0 && !hasCookie) {
      applyTheme(stored);
      saveTheme(stored);
    }
    doc.addEventListener('click', function (event) {
      var link = event.target.closest && event.target.closest('[data-theme-choice]');
      if (!link) return;
      event.preventDefault();
      var theme = link.getAttribute('data-theme-choice');
      applyTheme(theme);
      saveTheme(theme);
    });
  })();

  /* ---------- Route colours (CSP allows setting styles from script) ---------- */

  function paintColours(scope) {
    scope.querySelectorAll('[data-color]').forEach(function (node) {
      var hex = node.getAttribute('data-color');
      if (!/^[0-9A-Fa-f]{6}$/.test(hex)) return;
      node.style.setProperty('--line-color', '#' + hex);
      node.classList.add('has-color');
    });
  }
  paintColours(doc);

  /* ---------- Stops: one list item, as the server renders it ---------- */

  function kindName(stop) {
    if (stop.kind === 'station') return t('station');
    return stop.platform ? t('platform') : t('stop');
  }

  function formatDistance(metres) {
    var lang = root.getAttribute('lang') || 'en';
    if (metres < 1000) return t('metres', { distance: Math.round(metres / 10) * 10 });
    var km = (metres / 1000).toLocaleString(lang, { maximumFractionDigits: 1 });
    return t('kilometres', { distance: km });
  }

  function stopMeta(stop) {
    var parts = [kindName(stop)];
    if (stop.code) parts.push(t('code', { code: stop.code }));
    if (typeof stop.distanceMetres === 'number') parts.push(formatDistance(stop.distanceMetres));
    return parts.join(' \u00B7 ');
  }

  function boardLink(id) { return '/stops/' + encodeURIComponent(id); }

  function stopListItem(stop) {
    var li = el('li');
    var a = el('a', 'stop-item');
    a.href = boardLink(stop.id);
    a.appendChild(el('span', 'stop-name', stop.name));
    a.appendChild(el('span', 'stop-meta', stopMeta(stop)));
    li.appendChild(a);
    return li;
  }

  /* ---------- Search as you type (a combobox over the plain form) ---------- */

  function StopSearch(input) {
    var list = doc.getElementById(input.id + '-results');
    var status = doc.getElementById(input.id + '-status');
    var target = input.getAttribute('data-target') || '/stops/{id}';
    // A field of a form (the journey planner): picking fills it and its hidden ID rather than going to a board.
    var picked = input.getAttribute('data-pick') ? doc.getElementById(input.getAttribute('data-pick')) : null;
    var pair = input.getAttribute('data-pair') ? doc.getElementById(input.getAttribute('data-pair')) : null;
    var options = [];
    var active = -1;
    var timer = null;
    var sequence = 0;
    var controller = null;

    input.setAttribute('role', 'combobox');
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-expanded', 'false');
    input.setAttribute('aria-controls', list.id);

    function hrefFor(stop) { return target.split('{id}').join(encodeURIComponent(stop.id)); }

    // The place last picked here (typing clears the hidden ID, not this), for swapping.
    if (picked && picked.value) { input.setAttribute('data-picked-id', picked.value); input.setAttribute('data-picked-name', input.value); }

    function fill(field, hidden, id, name) {
      field.value = name;
      hidden.value = id;
      field.setAttribute('data-picked-id', id);
      field.setAttribute('data-picked-name', name);
    }

    // Choosing here the place the other field holds swaps the two, as the MRT app does.
    function choose(option) {
      if (!picked) { location.href = option.getAttribute('data-href'); return; }
      var id = option.getAttribute('data-id'), name = option.getAttribute('data-name');
      var pairPicked = pair && pair.getAttribute('data-pick') ? doc.getElementById(pair.getAttribute('data-pick')) : null;
      if (pairPicked && pairPicked.value === id) {
        var previousId = input.getAttribute('data-picked-id'), previousName = input.getAttribute('data-picked-name');
        if (previousId) fill(pair, pairPicked, previousId, previousName || ''); else { pair.value = ''; pairPicked.value = ''; }
      }
      fill(input, picked, id, name);
      close();
    }

    function close() {
      list.hidden = true;
      status.hidden = true;
      input.setAttribute('aria-expanded', 'false');
      input.removeAttribute('aria-activedescendant');
      active = -1;
    }

    function showStatus(text) {
      list.hidden = true;
      input.setAttribute('aria-expanded', 'false');
      status.textContent = text;
      status.hidden = !text;
      if (text) announce(text);
    }

    function setActive(index) {
      options.forEach(function (option, i) { option.setAttribute('aria-selected', i === index ? 'true' : 'false'); });
      active = index;
      if (index >= 0) {
        input.setAttribute('aria-activedescendant', options[index].id);
        options[index].scrollIntoView({ block: 'nearest' });
      } else {
        input.removeAttribute('aria-activedescendant');
      }
    }

    function render(stops, query) {
      list.textContent = '';
      options = [];
      active = -1;
      if (!stops.length) {
        showStatus(t('no-results', { query: query }));
        return;
      }
      status.hidden = true;
      stops.forEach(function (stop, i) {
        var option = el('li', 'suggestion');
        option.id = list.id + '-' + i;
        option.setAttribute('role', 'option');
        option.setAttribute('aria-selected', 'false');
        option.setAttribute('data-href', hrefFor(stop));
        option.setAttribute('data-id', stop.id);
        option.setAttribute('data-name', stop.name);
        option.appendChild(el('span', 'stop-name', stop.name));
        option.appendChild(el('span', 'stop-meta', stopMeta(stop)));
        // mousedown, not click: the input's blur would close the list first.
        option.addEventListener('mousedown', function (event) {
          event.preventDefault();
          choose(option);
        });
        list.appendChild(option);
        options.push(option);
      });
      list.hidden = false;
      input.setAttribute('aria-expanded', 'true');
    }

    function search() {
      var query = input.value.trim();
      if (!query) { close(); return; }
      var mine = ++sequence;
      if (controller) controller.abort();
      controller = window.AbortController ? new AbortController() : null;
      var url = '/api/v1/stops?q=' + encodeURIComponent(query) + '&limit=8';
      fetch(url, { headers: { Accept: 'application/json' }, signal: controller ? controller.signal : undefined })
        .then(function (response) {
          if (!response.ok) throw new Error('HTTP ' + response.status);
          return response.json();
        })
        .then(function (data) {
          if (mine !== sequence) return; // a newer search is under way
          render((data && data.stops) || [], query);
        })
        .catch(function (error) {
          if (error && error.name === 'AbortError') return;
          if (mine === sequence) showStatus(t('search-unavailable'));
        });
    }

    input.addEventListener('input', function () {
      if (picked) picked.value = ''; // typed again: the text decides, until a suggestion is picked
      clearTimeout(timer);
      timer = setTimeout(search, 150);
    });

    input.addEventListener('keydown', function (event) {
      var open = !list.hidden && options.length > 0;
      if (event.key === 'ArrowDown') {
        if (!open) { search(); return; }
        event.preventDefault();
        setActive(active < options.length - 1 ? active + 1 : 0);
      } else if (event.key === 'ArrowUp') {
        if (!open) return;
        event.preventDefault();
        setActive(active > 0 ? active - 1 : options.length - 1);
      } else if (event.key === 'Enter') {
        // With a suggestion picked, go there; otherwise the form submits as without the script.
        if (open && active >= 0) {
          event.preventDefault();
          choose(options[active]);
        }
      } else if (event.key === 'Escape') {
        if (open || !status.hidden) { event.preventDefault(); close(); }
      }
    });

    input.addEventListener('blur', function () { setTimeout(close, 150); });
  }

  doc.querySelectorAll('input[data-stop-search]').forEach(function (input) { new StopSearch(input); });

  /* ---------- Nearby stations (location only on request) ---------- */

  (function initNearby() {
    var section = doc.querySelector('[data-nearby]');
    if (!section || !('geolocation' in navigator)) return;
    var button = section.querySelector('[data-locate]');
    var status = section.querySelector('[data-nearby-status]');
    var list = section.querySelector('[data-nearby-list]');
    var radius = 800;
    section.hidden = false;

    function say(text) {
      status.textContent = text;
      status.hidden = !text;
      if (text) announce(text);
    }

    button.addEventListener('click', function () {
      button.disabled = true;
      list.hidden = true;
      say(t('locating'));
      navigator.geolocation.getCurrentPosition(function (position) {
        var url = section.getAttribute('data-nearby') + '?lat=' + position.coords.latitude.toFixed(5) +
          '&lon=' + position.coords.longitude.toFixed(5) + '&radius=' + radius + '&limit=8';
        fetch(url, { headers: { Accept: 'application/json' } })
          .then(function (response) {
            if (!response.ok) throw new Error('HTTP ' + response.status);
            return response.json();
          })
          .then(function (data) {
            var stops = (data && data.stops) || [];
            list.textContent = '';
            if (!stops.length) { say(t('nearby-none', { distance: formatDistance(radius) })); return; }
            stops.forEach(function (stop) { list.appendChild(stopListItem(stop)); });
            list.hidden = false;
            say('');
          })
          .catch(function () { say(t('location-unavailable')); })
          .then(function () { button.disabled = false; });
      }, function (error) {
        button.disabled = false;
        say(error && error.code === 1 ? t('location-denied') : t('location-unavailable'));
      }, { enableHighAccuracy: false, timeout: 15000, maximumAge: 60000 });
    });
  })();

  /* ---------- Recent stations (this browser only) ---------- */

  (function initRecent() {
    var KEY = 'onward.recent';
    var MAX = 6;

    function load() {
      try {
        var list = JSON.parse(storage.get(KEY) || '[]');
        return Array.isArray(list) ? list.filter(function (s) { return s && typeof s.id === 'string' && typeof s.name === 'string'; }) : [];
      } catch (e) { return []; }
    }

    // A board page records its station.
    var main = doc.getElementById('main');
    var id = main && main.getAttribute('data-recent-id');
    if (id) {
      var entry = { id: id, name: main.getAttribute('data-recent-name') || id };
      var list = load().filter(function (s) { return s.id !== id; });
      list.unshift(entry);
      storage.set(KEY, JSON.stringify(list.slice(0, MAX)));
    }

    // The home page lists them.
    var section = doc.getElementById('recent');
    if (!section) return;
    var target = section.querySelector('[data-recent-list]');
    var recent = load();
    if (!recent.length) return;
    recent.forEach(function (stop) {
      var li = el('li');
      var a = el('a', 'stop-item');
      a.href = boardLink(stop.id);
      a.appendChild(el('span', 'stop-name', stop.name));
      li.appendChild(a);
      target.appendChild(li);
    });
    section.hidden = false;
    section.querySelector('[data-recent-clear]').addEventListener('click', function () {
      storage.remove(KEY);
      section.hidden = true;
    });
  })();

  /* ---------- Live updates over a WebSocket ---------- */

  (function initLive() {
    var container = doc.querySelector('[data-live]');
    if (!container || !('WebSocket' in window)) return;
    var indicator = doc.querySelector('[data-connection]');
    var query = container.getAttribute('data-live');
    var socket = null;
    var attempt = 0;
    var retryTimer = null;
    var lastSummary = null;
    var closing = false;

    root.classList.add('js-live');

    function setState(state) {
      if (!indicator) return;
      indicator.hidden = false;
      indicator.setAttribute('data-state', state);
      indicator.textContent = t(state);
    }

    var pending = null;

    // Swaps in the server's fragment, keeping keyboard focus on the same link if it is still there
    // and open boxes open. While someone types in a field inside it, the update waits until they leave
    // the field: a redraw must never eat what they typed.
    function replace(html) {
      var focused = doc.activeElement;
      if (focused && container.contains(focused) && (focused.tagName === 'INPUT' || focused.tagName === 'TEXTAREA') &&
          focused.type !== 'hidden' && focused.type !== 'checkbox') {
        if (pending === null) {
          focused.addEventListener('blur', function () { var later = pending; pending = null; if (later !== null) replace(later); }, { once: true });
        }
        pending = html;
        return;
      }
      var focusHref = focused && container.contains(focused) ? focused.getAttribute('href') : null;
      var open = Array.prototype.map.call(container.querySelectorAll('details[open][class]'), function (d) { return d.classList[0]; });
      setServerHTML(container, html);
      open.forEach(function (name) {
        var box = container.querySelector('details.' + name);
        if (box) box.open = true;
      });
      if (focusHref) {
        var links = container.querySelectorAll('a[href]');
        for (var i = 0; i < links.length; i++) {
          if (links[i].getAttribute('href') === focusHref) { links[i].focus({ preventScroll: true }); break; }
        }
      }
      var summary = container.querySelector('[data-summary]');
      var text = summary ? summary.getAttribute('data-summary') : '';
      // The first message repeats what the page shows: nothing to announce.
      if (lastSummary !== null && text && text !== lastSummary) announce(text);
      lastSummary = text;
      doc.dispatchEvent(new CustomEvent('onward:redrawn'));
    }

    function connect() {
      clearTimeout(retryTimer);
      retryTimer = null;
      var scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
      try {
        socket = new WebSocket(scheme + '//' + location.host + '/live?' + query);
      } catch (e) {
        scheduleReconnect();
        return;
      }
      socket.onmessage = function (event) {
        var message;
        try { message = JSON.parse(event.data); } catch (e) { return; }
        if (!message) return;
        if (message.type === 'error') { setState('paused'); return; }
        if (typeof message.html === 'string') {
          if (lastSummary === null) {
            var current = container.querySelector('[data-summary]');
            lastSummary = current ? current.getAttribute('data-summary') : '';
          }
          replace(message.html);
        }
        attempt = 0;
        setState('live');
      };
      socket.onclose = function () {
        socket = null;
        if (!closing) scheduleReconnect();
      };
      socket.onerror = function () { /* onclose follows and reconnects */ };
    }

    // 1 s, 2 s, 4 s … up to 30 s, each a random time between half and all of it.
    function scheduleReconnect() {
      if (retryTimer) return;
      setState('reconnecting');
      var ceiling = Math.min(30000, 1000 * Math.pow(2, attempt));
      var delay = ceiling / 2 + Math.random() * ceiling / 2;
      attempt = Math.min(attempt + 1, 10);
      retryTimer = setTimeout(connect, delay);
    }

    window.addEventListener('online', function () {
      if (!socket) { attempt = 0; connect(); }
    });
    // Lost network: a dead connection may not close by itself for minutes; closed now, the page says it is reconnecting.
    window.addEventListener('offline', function () { if (socket) socket.close(); });
    window.addEventListener('pagehide', function () {
      closing = true;
      if (socket) socket.close();
    });
    window.addEventListener('pageshow', function (event) {
      // Back from the back/forward cache: the socket was closed on the way out.
      if (event.persisted) { closing = false; attempt = 0; connect(); }
    });

    setState('connecting');
    connect();
  })();
  /* ---------- The timetable with no signal ---------- */

  // Signed in, every page asks the service worker (sw.js) to keep the timetables of the person's saved boards, made
  // again when their routes change (`data-signed-in` is their routes' version). Signed out, it asks it to keep
  // nothing, and signing out drops what it kept before the form goes. A kept copy shown with no signal drops the rows
  // gone by; its live part catches up by itself when the network is back (the live channel reconnects).
  (function initOffline() {
    var copy = doc.querySelector('[data-offline-copy]');
    if (copy) {
      var drop = function () {
        var now = Date.now();
        copy.querySelectorAll('tr[data-at]').forEach(function (row) {
          var at = Date.parse(row.getAttribute('data-at'));
          if (!isNaN(at) && at < now - 60000) row.remove();
        });
      };
      drop();
      setInterval(drop, 30000);
    }
    if (!('serviceWorker' in navigator) || !('caches' in window)) return;
    var version = body.getAttribute('data-signed-in');
    navigator.serviceWorker.addEventListener('message', function (event) {
      var data = event.data || {};
      if (data.type === 'offline-ready') root.setAttribute('data-offline-kept', String(data.kept === null ? 'unchanged' : data.kept));
    });
    if (version === null) {
      // A worker left from a session that ended elsewhere keeps nothing for a signed-out visitor.
      navigator.serviceWorker.getRegistration().then(function (reg) {
        if (reg && reg.active) reg.active.postMessage({ type: 'offline-clear' });
      }).catch(function () {});
      return;
    }
    if (copy) return;
    navigator.serviceWorker.register('/sw.js').then(function () { return navigator.serviceWorker.ready; }).then(function (reg) {
      reg.active.postMessage({ type: 'offline-sync', version: Number(version) });
    }).catch(function () {});
    doc.querySelectorAll('form[action="/signout"]').forEach(function (form) {
      form.addEventListener('submit', function (event) {
        if (form.hasAttribute('data-cleared')) return;
        event.preventDefault();
        var go = function () { form.setAttribute('data-cleared', ''); form.submit(); };
        // At most a second: signing out never waits on the worker (the server's Clear-Site-Data clears it too).
        var timer = setTimeout(go, 1000);
        var worker = navigator.serviceWorker.controller;
        if (worker) worker.postMessage({ type: 'offline-clear' });
        try { sessionStorage.removeItem('onward.commute.last'); } catch (e) { /* none kept */ }
        caches.delete('onward-offline-v1').catch(function () {}).then(function () { clearTimeout(timer); go(); });
      });
    });
  })();

  /* ---------- Commuting mode ---------- */

  var COMMUTE_KEY = 'onward.commute';
  var LAST_COMMUTE_KEY = 'onward.commute.last';

  // A JSON API call; `csrf` (the page's token) for a change made with the session cookie.
  function api(method, path, bodyValue, csrf) {
    var options = { method: method, headers: { 'Accept': 'application/json' }, credentials: 'same-origin' };
    if (csrf) options.headers['X-CSRF-Token'] = csrf;
    if (bodyValue !== undefined) {
      options.headers['Content-Type'] = 'application/json';
      options.body = JSON.stringify(bodyValue);
    }
    return fetch(path, options).then(function (response) {
      if (response.status === 204) return null;
      return response.json().catch(function () { return null; }).then(function (data) {
        if (!response.ok) {
          var error = new Error((data && data.detail) || String(response.status));
          error.status = response.status;
          throw error;
        }
        return data;
      });
    });
  }

  // The journey page: each option's "Start commuting" and "Try it" buttons.
  (function initCommuteStart() {
    var section = doc.querySelector('[data-commute-from]');
    if (!section || !('fetch' in window) || !('WebSocket' in window)) return;
    section.querySelectorAll('[data-commute-only]').forEach(function (node) { node.hidden = false; });
    var problem = section.querySelector('[data-commute-problem]');
    section.addEventListener('click', function (event) {
      var button = event.target.closest('[data-commute-start]');
      if (!button) return;
      var params = new URLSearchParams(location.search);
      var request = {
        from: section.getAttribute('data-commute-from'),
        to: section.getAttribute('data-commute-to'),
        option: Number(button.getAttribute('data-commute-start')),
        simulate: button.hasAttribute('data-simulate'),
        nearStation: !!(doc.getElementById('commute-near') || {}).checked
      };
      ['date', 'time'].forEach(function (name) { if (params.get(name)) request[name] = params.get(name); });
      if (params.get('arriveBy') === '1') request.arriveBy = true;
      if (params.get('wheelchair') === '1') request.wheelchair = true;
      button.disabled = true;
      // Asked here, on the traveller's tap: browsers only ask for permission after a gesture.
      var asked = ('Notification' in window && Notification.permission === 'default')
        ? Notification.requestPermission().catch(function () { return 'default'; }) : Promise.resolve();
      asked.then(function () { return api('POST', '/api/v1/commutes', request); }).then(function (commute) {
        storage.set(COMMUTE_KEY, commute.id);
        location.href = '/commute#' + commute.id;
      }).catch(function (error) {
        button.disabled = false;
        if (problem) {
          problem.textContent = t('commute-start-failed', { reason: error.message });
          problem.hidden = false;
        }
      });
    });
  })();

  // A signed-in person's journey options (the journey page, a saved journey on My routes): each option's switch to
  // watch it. Watching asks for notifications (on the tap, as browsers require), keeps the browser's push
  // subscription as the person's, then posts the watch; the options already watched are marked when the page
  // opens and after each live redraw. Each switch's section names the places and carries the CSRF token.
  (function initWatch() {
    if (!('fetch' in window) || !doc.querySelector('[data-watch-csrf]')) return;
    function send(section, method, path, value) { return api(method, path, value, section.getAttribute('data-watch-csrf')); }
    function show(box, watchID) {
      var button = box.querySelector('[data-watch-toggle]');
      box.setAttribute('data-watch-id', watchID || '');
      button.setAttribute('aria-checked', watchID ? 'true' : 'false');
      button.textContent = watchID ? t('watch-on') : t('watch-switch');
      box.querySelector('[data-watch-days]').disabled = !!watchID;
      box.querySelector('[data-watch-status]').textContent = watchID ? t('watch-explained') : '';
    }
    // The options already watched: same places, same time; on their day, or on a day they repeat.
    function mark() {
      var sections = doc.querySelectorAll('[data-watch-csrf]');
      if (!sections.length) return;
      send(sections[0], 'GET', '/api/v1/me/watches').then(function (answer) {
        var names = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
        Array.prototype.forEach.call(sections, function (section) {
          var from = section.getAttribute('data-watch-from'), to = section.getAttribute('data-watch-to');
          section.querySelectorAll('[data-watch-departure]').forEach(function (box) {
            box.hidden = false;
            var departure = box.getAttribute('data-watch-departure');
            var day = names[new Date(departure.slice(0, 10) + 'T12:00:00Z').getUTCDay()];
            var found = answer.watches.filter(function (w) {
              return w.from === from && w.to === to && w.time === departure.slice(11, 16)
                && (w.date === departure.slice(0, 10) || w.days.indexOf(day) >= 0);
            })[0];
            show(box, found ? found.id : null);
          });
        });
      }).catch(function () {});
    }
    doc.addEventListener('click', function (event) {
      var button = event.target.closest('[data-watch-toggle]');
      if (!button) return;
      var box = button.closest('[data-watch-departure]'), section = button.closest('[data-watch-csrf]');
      var id = box.getAttribute('data-watch-id');
      button.disabled = true;
      var days = box.querySelector('[data-watch-days]').value;
      var done = id
        ? send(section, 'DELETE', '/api/v1/me/watches/' + encodeURIComponent(id)).then(function () { show(box, null); })
        // Watched all the same without push: the live channel still hears.
        : subscribeMyPush(section.getAttribute('data-watch-csrf')).catch(function () { return false; }).then(function () {
          var request = { from: section.getAttribute('data-watch-from'), to: section.getAttribute('data-watch-to'),
                          departure: box.getAttribute('data-watch-departure') };
          if (days) request.days = days.split(',');
          return send(section, 'POST', '/api/v1/me/watches', request);
        }).then(function (watch) { show(box, watch.id); });
      done.catch(function (error) {
        box.querySelector('[data-watch-status]').textContent = t('watch-failed', { reason: error.message });
      }).then(function () { button.disabled = false; });
    });
    doc.addEventListener('onward:redrawn', mark);
    mark();
  })();

  // The commute page: the journey and its alerts, live; notifications, push and location.
  (function initCommutePage() {
    var page = doc.querySelector('[data-commute-page]');
    if (!page) return;
    var id = location.hash.length > 1 ? location.hash.slice(1) : storage.get(COMMUTE_KEY);
    var none = page.querySelector('[data-commute-none]');
    var banner = page.querySelector('[data-commute-banner]');
    var stateLine = page.querySelector('[data-commute-state]');
    var journeyBox = page.querySelector('[data-commute-journey]');
    var actions = page.querySelector('[data-commute-actions]');
    var delivery = page.querySelector('[data-commute-delivery]');
    var list = page.querySelector('[data-commute-alerts]');
    var notifyButton = page.querySelector('[data-commute-notify]');
    var locateButton = page.querySelector('[data-commute-locate]');
    var stopButton = page.querySelector('[data-commute-stop]');
    var indicator = doc.querySelector('[data-connection]');
    var socket = null, attempt = 0, retryTimer = null, watchID = null, registration = null, current = null, ended = false;
    // The service worker shows notifications (also the page's own) and receives pushes.
    var worker = 'serviceWorker' in navigator
      ? navigator.serviceWorker.register('/sw.js').then(function () { return navigator.serviceWorker.ready; }) : null;

    function showNone() {
      ended = true;
      storage.remove(COMMUTE_KEY);
      if (socket) socket.close();
      if (watchID !== null) navigator.geolocation.clearWatch(watchID);
      none.hidden = false;
      actions.hidden = true;
      stateLine.textContent = '';
      journeyBox.textContent = '';
      if (indicator) indicator.hidden = true;
    }
    if (!id || !('WebSocket' in window) || !('fetch' in window)) { showNone(); return; }
    // The ID stays out of the address bar and so out of history and shared links.
    storage.set(COMMUTE_KEY, id);
    if (location.hash) history.replaceState(null, '', location.pathname);

    function setConnection(state) {
      if (!indicator) return;
      indicator.hidden = false;
      indicator.setAttribute('data-state', state);
      indicator.textContent = t(state);
    }

    function clock(iso) { return iso ? iso.slice(11, 16) : ''; }

    function alertItem(alert) {
      var li = el('li', 'commute-alert');
      li.setAttribute('data-kind', alert.kind);
      var time = el('time', 'commute-alert-time', clock(alert.at));
      time.setAttribute('datetime', alert.at);
      li.appendChild(time);
      li.appendChild(doc.createTextNode(' '));
      li.appendChild(el('span', 'commute-alert-text', alert.message));
      // What the moment was judged from: live times, the timetable, the position or a beacon.
      if (alert.basis) {
        li.setAttribute('data-basis', alert.basis);
        li.appendChild(doc.createTextNode(' '));
        li.appendChild(el('small', 'commute-alert-basis', t('basis-' + alert.basis)));
      }
      return li;
    }

    // Signed in, the journey last heard of is kept for the session, so the page reopened with no signal (a tunnel)
    // still shows it, on its timetable. Nothing is kept for a signed-out visitor; signing out drops it.
    var keepLast = body.hasAttribute('data-signed-in') && 'sessionStorage' in window;
    function keepJourney(commute, html) {
      if (!keepLast || typeof html !== 'string') return;
      var kept = { id: id, commute: commute, html: html, heardAt: heardAt };
      try { sessionStorage.setItem(LAST_COMMUTE_KEY, JSON.stringify(kept)); } catch (e) { /* full: not kept */ }
    }
    function keptJourney() {
      if (!keepLast) return null;
      try {
        var kept = JSON.parse(sessionStorage.getItem(LAST_COMMUTE_KEY) || 'null');
        return kept && kept.id === id ? kept : null;
      } catch (e) { return null; }
    }
    // With no network the page says, by itself, the alerts the journey's times give (`ahead`, worked out by the
    // server's own rules when it last heard from it), each when its moment comes; the server's list takes over again
    // when the network is back, and an alert already said here is not said twice.
    var heardAt = Date.now(), aheadTimers = [], saidOffline = {};
    function alertKey(a) { return a.kind + '|' + a.stopId; }
    function sayAhead() {
      if (!current || !current.ahead || aheadTimers.length) return;
      var base = Date.parse(current.now), speed = current.speed || 1;
      current.ahead.forEach(function (a) {
        var due = heardAt + (Date.parse(a.at) - base) / speed;
        aheadTimers.push(setTimeout(function () {
          if (saidOffline[alertKey(a)]) return;
          saidOffline[alertKey(a)] = true;
          var empty = list.querySelector('.commute-alert-empty');
          if (empty) empty.remove();
          list.appendChild(alertItem(a));
          // One whose moment passed while the page was closed is listed, not rung.
          if (Date.now() - due < 120000) notify(a);
        }, Math.max(0, due - Date.now())));
      });
    }
    function showOffline() {
      if (!current) return;
      stateLine.textContent = t('offline-last-live', { time: clock(current.now) });
      sayAhead();
    }

    function render(commute, html, heard) {
      aheadTimers.forEach(clearTimeout);
      aheadTimers = [];
      heardAt = heard || Date.now();
      keepJourney(commute, html);
      current = commute;
      var parts = [t('commute-clock', { time: clock(commute.now) })];
      if (commute.simulated) parts.push(t('commute-simulated', { speed: commute.speed }));
      if (commute.status === 'ended') parts.push(t('commute-ended'));
      stateLine.textContent = parts.join(' · ');
      if (typeof html === 'string') setServerHTML(journeyBox, html);
      list.textContent = '';
      if (!commute.alerts.length) list.appendChild(el('li', 'commute-alert-empty', t('no-alerts')));
      commute.alerts.forEach(function (a) { list.appendChild(alertItem(a)); });
      actions.hidden = false;
      // A simulated traveller moves by itself: the device's position is not asked for.
      locateButton.hidden = !!commute.simulated || !('geolocation' in navigator);
      describeDelivery();
    }

    function describeDelivery() {
      var allowed = 'Notification' in window && Notification.permission === 'granted';
      notifyButton.hidden = !('Notification' in window) || Notification.permission !== 'default';
      var words = [allowed ? t('commute-notify-on') : t('commute-notify-blocked')];
      words.push(current && current.push ? t('commute-push-on') : t('commute-push-off'));
      delivery.textContent = words.join(' ');
    }

    // A short two-tone chime (Web Audio: no sound file to fetch).
    function chime() {
      var Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return;
      try {
        var audio = new Context();
        [0, 0.18].forEach(function (start, i) {
          var osc = audio.createOscillator(), gain = audio.createGain();
          osc.frequency.value = i ? 660 : 880;
          gain.gain.setValueAtTime(0.15, audio.currentTime + start);
          gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + start + 0.16);
          osc.connect(gain); gain.connect(audio.destination);
          osc.start(audio.currentTime + start); osc.stop(audio.currentTime + start + 0.17);
        });
        setTimeout(function () { audio.close(); }, 800);
      } catch (e) { /* no sound: the notification or banner still shows */ }
    }

    // One alert in the foreground: a notification with vibration and a sound, or a banner
    // when notifications are not allowed. Same tag as the push, so never two for one alert.
    function notify(alert) {
      if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
      chime();
      announce(alert.message);
      var allowed = 'Notification' in window && Notification.permission === 'granted';
      if (allowed && worker) {
        worker.then(function (reg) {
          return reg.showNotification(alert.stopName, {
            body: alert.message, tag: 'onward-' + alert.kind + '-' + alert.stopId, vibrate: [200, 100, 200],
            icon: '/assets/icon.svg', data: { url: '/commute', kind: alert.kind }
          });
        }).catch(function () { showBanner(alert); });
      } else {
        showBanner(alert);
      }
    }

    // Alerts this device has not yet been told about (also those given while it was away), once each.
    function notifyNew(alerts) {
      var seenKey = COMMUTE_KEY + '.seen';
      var seen = Number(storage.get(seenKey) || 0);
      if (storage.get(COMMUTE_KEY + '.for') !== id) { seen = 0; storage.set(COMMUTE_KEY + '.for', id); }
      for (var i = seen; i < alerts.length; i++) { if (!saidOffline[alertKey(alerts[i])]) notify(alerts[i]); }
      storage.set(seenKey, String(alerts.length));
    }

    function showBanner(alert) {
      banner.textContent = '';
      banner.setAttribute('data-kind', alert.kind);
      banner.appendChild(el('strong', null, alert.stopName));
      banner.appendChild(doc.createTextNode(' ' + alert.message));
      banner.hidden = false;
    }

    // Background alerts: a push subscription for this commute, when notifications are allowed.
    function subscribePush() {
      if (!registration || !('PushManager' in window) || Notification.permission !== 'granted') return Promise.resolve();
      return pushSubscription(registration).then(function (subscription) {
        return api('PUT', '/api/v1/commutes/' + encodeURIComponent(id) + '/push', subscription.toJSON());
      }).then(function () {
        if (current) { current.push = true; describeDelivery(); }
      }).catch(function () { describeDelivery(); });
    }

    function send(message) {
      if (socket && socket.readyState === 1) { socket.send(JSON.stringify(message)); return; }
      var body = { at: message.at };
      if (message.beacon) body.beacon = message.beacon; else { body.lat = message.lat; body.lon = message.lon; body.accuracy = message.accuracy; }
      api('POST', '/api/v1/commutes/' + encodeURIComponent(id) + '/sightings', body).catch(function () {});
    }

    notifyButton.addEventListener('click', function () {
      Notification.requestPermission().then(function () { describeDelivery(); return subscribePush(); });
    });
    locateButton.addEventListener('click', function () {
      if (watchID !== null) {
        navigator.geolocation.clearWatch(watchID);
        watchID = null;
        locateButton.setAttribute('aria-pressed', 'false');
        locateButton.textContent = t('commute-locate');
        return;
      }
      locateButton.setAttribute('aria-pressed', 'true');
      locateButton.textContent = t('commute-locating');
      watchID = navigator.geolocation.watchPosition(function (position) {
        send({ type: 'position', at: new Date(position.timestamp).toISOString(), lat: position.coords.latitude,
               lon: position.coords.longitude, accuracy: position.coords.accuracy });
      }, function () {
        locateButton.setAttribute('aria-pressed', 'false');
        locateButton.textContent = t('commute-locate');
        watchID = null;
      }, { enableHighAccuracy: true, maximumAge: 10000 });
    });
    stopButton.addEventListener('click', function () {
      api('DELETE', '/api/v1/commutes/' + encodeURIComponent(id)).catch(function () {}).then(showNone);
    });

    function connect() {
      clearTimeout(retryTimer);
      retryTimer = null;
      var scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
      socket = new WebSocket(scheme + '//' + location.host + '/live?format=html&commute=' + encodeURIComponent(id));
      socket.onmessage = function (event) {
        var message;
        try { message = JSON.parse(event.data); } catch (e) { return; }
        if (!message) return;
        attempt = 0;
        setConnection('live');
        if (message.commute) {
          render(message.commute, message.html);
          notifyNew(message.commute.alerts);
        }
      };
      socket.onclose = function () {
        socket = null;
        if (ended || retryTimer) return;
        // Gone (ended elsewhere, or expired) or only disconnected? Ask before reconnecting.
        api('GET', '/api/v1/commutes/' + encodeURIComponent(id)).then(function () {
          setConnection('reconnecting');
          var ceiling = Math.min(30000, 1000 * Math.pow(2, attempt));
          attempt = Math.min(attempt + 1, 10);
          retryTimer = setTimeout(connect, ceiling / 2 + Math.random() * ceiling / 2);
        }).catch(function (error) {
          if (error.status === 404) { showNone(); return; }
          // No signal (a tunnel): the journey stays on screen on its timetable, said so, until the network is back.
          if (!error.status) showOffline();
          retryTimer = setTimeout(connect, 5000);
        });
      };
    }
    // The device says it lost its network (a tunnel): a connection that cannot carry anything any more may not close
    // for minutes by itself, so it is closed now and the page says it is on the timetable.
    window.addEventListener('offline', function () { if (socket) socket.close(); });
    window.addEventListener('online', function () {
      if (ended || socket) return;
      clearTimeout(retryTimer);
      retryTimer = null;
      connect();
    });

    setConnection('connecting');
    api('GET', '/api/v1/commutes/' + encodeURIComponent(id)).then(function (commute) {
      render(commute);
      connect();
      if (worker) {
        worker.then(function (reg) {
          registration = reg;
          return subscribePush();
        }).catch(function () { describeDelivery(); });
      }
    }).catch(function (error) {
      if (error.status === 404) { showNone(); return; }
      if (error.status) { setConnection('paused'); return; }
      // No network: the journey kept for the session, on its timetable, until the network is back.
      var kept = keptJourney();
      if (kept) { render(kept.commute, kept.html, kept.heardAt); showOffline(); }
      setConnection('reconnecting');
      retryTimer = setTimeout(connect, 5000);
    });
    window.addEventListener('pagehide', function () { ended = true; if (socket) socket.close(); });
  })();
  // Telegram sign-in: Telegram's own login window (its script's Telegram.Login.auth, opened for the bot's ID);
  // what it signs is posted to this server with the page's anti-forgery token, as the password form is.
  (function () {
    var form = document.querySelector('[data-telegram-sign-in]');
    if (!form) return;
    var button = form.querySelector('button');
    button.addEventListener('click', function () {
      if (!window.Telegram || !window.Telegram.Login) return;
      window.Telegram.Login.auth({ bot_id: form.getAttribute('data-bot-id'), request_access: 'write' }, function (user) {
        if (!user) return;
        Object.keys(user).forEach(function (key) {
          var input = document.createElement('input');
          input.type = 'hidden';
          input.name = key;
          input.value = String(user[key]);
          form.appendChild(input);
        });
        form.submit();
      });
    });
  })();
})();
