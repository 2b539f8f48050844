/* Onward's trip page: the live map (Leaflet with Onward's own layers), sharing one's position,
   events with RSVP, the trip's chat and the hosts' broadcasts. Plain ES2017, no build step.
   Everything from the network is set with textContent or as Leaflet tooltip text nodes, never as HTML. */
(function () {
  'use strict';
  var main = document.querySelector('main[data-trip]');
  if (!main || !window.L) return;
  var trip = main.dataset.trip, me = main.dataset.me, csrf = main.dataset.csrf, isHost = main.dataset.role === 'host';
  function t(key) { return main.getAttribute('data-t-' + key.replace(/\./g, '-')) || key; }
  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function api(method, path, body) {
    var init = { method: method, credentials: 'same-origin', headers: { 'X-CSRF-Token': csrf } };
    if (body !== undefined) { init.headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(body); }
    return fetch(path, init).then(function (r) {
      if (r.status === 204) return null;
      return r.json().then(function (j) { if (!r.ok) throw j; return j; });
    });
  }
  // The app's clock everywhere: the weekday from the page's string table and the time on 24 hours ("Fri 18:35"),
  // in the reader's own zone (a chat spans travellers' zones, unlike a board, which keeps the stop's).
  var WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
  function two(n) { return (n < 10 ? '0' : '') + n; }
  function when(iso) {
    var d = new Date(iso);
    return t('weekday.' + WEEKDAYS[d.getDay()]) + ' ' + two(d.getHours()) + ':' + two(d.getMinutes());
  }

  // Map colours come from the stylesheet's tokens, so the map follows the theme (chosen, or the device's).
  function token(name, fallback) {
    return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
  }

  // --- The map and Onward's own layers -------------------------------------------------------
  var map = L.map('trip-map', { zoomControl: true, attributionControl: true }).setView([42.55, 1.5], 13);
  map.attributionControl.setPrefix('<a href="/assets/leaflet/LICENSE">Leaflet</a>');
  if (main.dataset.tiles) {
    L.tileLayer(main.dataset.tiles, { maxZoom: 19, attribution: main.dataset.tileAttribution || '' }).addTo(map);
  } else {
    map.attributionControl.addAttribution(t('trip.noTiles') + ' © OpenStreetMap contributors (ODbL)');
  }
  var streetsLayer = L.geoJSON(null, {
    style: function (f) {
      var major = /^(primary|secondary|tertiary|trunk|motorway)/.test(f.properties.kind);
      return { color: major ? token('--map-street-major', '#8a6d3b') : token('--map-street', '#9aa0a6'), weight: major ? 4 : 2, opacity: 0.9 };
    },
    onEachFeature: function (f, layer) { if (f.properties.name) layer.bindTooltip(document.createTextNode(f.properties.name), { sticky: true }); }
  }).addTo(map);
  var skiLayer = L.geoJSON(null, {
    style: function (f) {
      var p = f.properties;
      if (p.kind === 'boundary') return { color: token('--color-accent', '#0b57d0'), weight: 1, dashArray: '4 6', fill: false, opacity: 0.5 };
      if (p.kind === 'lift') return { color: token('--map-ink', '#222'), weight: 2, dashArray: '2 5' };
      return { color: p.colour === 'black' ? token('--map-ink', '#111') : p.colour, weight: 4, dashArray: p.dashed ? '8 6' : null, opacity: 0.85 };
    },
    onEachFeature: function (f, layer) {
      var p = f.properties;
      if (p.kind === 'boundary') return;
      var label = (p.name || (p.kind === 'lift' ? p.liftKind : p.difficulty)) + ' · ' + (p.kind === 'lift' ? p.liftKind : p.difficulty) +
        ' · ' + p.lengthMetres + ' m' + (p.dropMetres ? ' · ↓' + p.dropMetres + ' m' : '');
      layer.bindTooltip(document.createTextNode(label), { sticky: true });
    }
  }).addTo(map);
  var transitLayer = L.geoJSON(null, {
    style: function () { return { color: token('--color-accent', '#0b57d0'), weight: 3, opacity: 0.7, fillColor: token('--color-surface', '#fff') }; },
    pointToLayer: function (f, ll) { return L.circleMarker(ll, { radius: 4, fillOpacity: 1, weight: 2 }); },
    onEachFeature: function (f, layer) { if (f.properties.name) layer.bindTooltip(document.createTextNode(f.properties.name)); }
  }).addTo(map);
  var skiBounds = null;
  // A theme chosen on the page (no reload) or a device turning dark: the layers take the new colours.
  function restyle() {
    [streetsLayer, skiLayer, transitLayer].forEach(function (layer) { layer.setStyle(layer.options.style); });
    if (mode === 'mountain') streetsLayer.setStyle({ opacity: 0.35 });
  }
  new MutationObserver(restyle).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  if (window.matchMedia) {
    var dark = window.matchMedia('(prefers-color-scheme: dark)');
    if (dark.addEventListener) dark.addEventListener('change', restyle);
  }
  function load(url, layer) {
    return fetch(url, { credentials: 'same-origin' }).then(function (r) { return r.ok ? r.json() : null; })
      .then(function (g) { if (g) layer.addData(g); return g; }).catch(function () { return null; });
  }
  var layersReady = Promise.all([
    load('/maps/streets.geojson', streetsLayer),
    main.dataset.ski === '1' ? load('/maps/ski.geojson', skiLayer).then(function (g) { if (g && g.features.length) skiBounds = skiLayer.getBounds(); }) : null,
    load('/maps/transit.geojson', transitLayer)
  ]);

  // Mountain map inside the ski area's boundary, street map elsewhere: the server says which.
  var mode = null;
  function setMode(lat, lon, focus) {
    return fetch('/maps/where?lat=' + lat + '&lon=' + lon).then(function (r) { return r.json(); }).then(function (w) {
      if (w.map === mode && !focus) return;
      mode = w.map;
      main.dataset.mapMode = mode;
      $('map-mode').textContent = t(mode === 'mountain' ? 'trip.mountain' : 'trip.street');
      if (mode === 'mountain') {
        skiLayer.bringToFront(); streetsLayer.setStyle({ opacity: 0.35 });
        if (skiBounds) map.fitBounds(skiBounds, { padding: [10, 10], animate: false });
      } else {
        streetsLayer.setStyle({ opacity: 0.9 }); streetsLayer.bringToFront();
        map.setView([lat, lon], 15, { animate: false });
      }
    }).catch(function () {});
  }

  // --- People on the map ---------------------------------------------------------------------
  var names = {}, markers = {};
  function refreshMembers() {
    return api('GET', '/api/v1/trips/' + trip + '/members').then(function (m) {
      var list = $('members');
      list.textContent = '';
      m.members.slice().sort(function (a, b) { return a.displayName.localeCompare(b.displayName); }).forEach(function (x) {
        names[x.id] = x.displayName;
        if (markers[x.id]) { markers[x.id].setTooltipContent(document.createTextNode(x.displayName)); placeLabelsSoon(); }
        var li = el('li', null, x.displayName);
        li.dataset.person = x.id;
        list.appendChild(li);
      });
      renderChosen(m.members);
      renderConversations();
    }).catch(function () {});
  }
  function showPosition(p) {
    var ll = [p.latitude, p.longitude], m = markers[p.person];
    if (!m) {
      m = L.circleMarker(ll, { radius: 8, color: '#fff', weight: 2, fillColor: '#d93025', fillOpacity: 1 }).addTo(map);
      m.bindTooltip(document.createTextNode(names[p.person] || '…'), { permanent: true, direction: 'right', className: 'person-label' });
      markers[p.person] = m;
    } else {
      m.setLatLng(ll);
    }
    m.getElement() && m.getElement().setAttribute('data-person', p.person);
    main.dataset.shown = Object.keys(markers).length;
    placeLabelsSoon();
  }
  function hide(person) {
    if (markers[person]) { map.removeLayer(markers[person]); delete markers[person]; }
    main.dataset.shown = Object.keys(markers).length;
    placeLabelsSoon();
  }
  // Names never cover each other (travellers together on a lift or at a hut), nor another traveller's dot: each
  // label, from the top of the map down, keeps its place right of its dot if that is free, else takes the left
  // side, else the nearest free row below or above (either side). Leaflet draws it; we only choose where.
  var placing = false;
  function placeLabelsSoon() {
    if (placing) return;
    placing = true;
    window.requestAnimationFrame(function () { placing = false; placeLabels(); });
  }
  function placeLabels() {
    var frame = map.getContainer().getBoundingClientRect();
    var people = Object.keys(markers).map(function (id) {
      var tip = markers[id].getTooltip();
      if (!tip || !tip.getElement()) return null;
      tip.options.direction = 'right';
      tip.options.offset = L.point(0, 0);
      tip.update();
      var at = map.latLngToContainerPoint(markers[id].getLatLng());
      return { tip: tip, x: frame.left + at.x, y: frame.top + at.y, box: tip.getElement().getBoundingClientRect() };
    }).filter(Boolean).sort(function (a, b) { return a.box.top - b.box.top || a.box.left - b.box.left; });
    // A dot's core: a label may touch a dot's rim, as Leaflet's own label touches its own dot.
    var core = 5, taken = [];
    function clear(box, other) {
      return box.right <= other.left || box.left >= other.right || box.bottom <= other.top || box.top >= other.bottom;
    }
    function free(box, self, dots) {
      return taken.every(function (o) { return clear(box, o); }) && (!dots || people.every(function (p) {
        return p === self || clear(box, { left: p.x - core, right: p.x + core, top: p.y - core, bottom: p.y + core });
      }));
    }
    function spot(p, dots) {
      var b = p.box, step = b.height + 2;
      for (var k = 0; k <= 2 * people.length + 2; k++) {
        var dy = (k % 2 ? 1 : -1) * Math.ceil(k / 2) * step;
        var right = { left: b.left, right: b.right, top: b.top + dy, bottom: b.bottom + dy };
        // Leaflet puts a left label as far left of the dot as a right one is right of it.
        var left = { left: 2 * p.x - b.right, right: 2 * p.x - b.left, top: right.top, bottom: right.bottom };
        if (free(right, p, dots)) return { side: 'right', dy: dy, box: right };
        if (free(left, p, dots)) return { side: 'left', dy: dy, box: left };
      }
      return null;
    }
    people.forEach(function (p) {
      // Without a spot clear of the dots too, one clear of the other names (there always is one).
      var s = spot(p, true) || spot(p, false) || { side: 'right', dy: 0, box: p.box };
      if (s.side !== 'right' || s.dy) {
        p.tip.options.direction = s.side;
        p.tip.options.offset = L.point(0, s.dy);
        p.tip.update();
      }
      p.tip.getElement().classList.toggle('person-label-moved', s.dy !== 0);
      taken.push(s.box);
    });
  }
  map.on('zoomend', placeLabelsSoon);

  // --- Sharing one's own position ------------------------------------------------------------
  var watch = null, paused = false, mine = null, mineCircle = null, lastFix = null;
  function sharingUntil() {
    var v = $('share-for').value;
    if (v === 'trip') return main.dataset.ends;
    return new Date(Date.now() + Number(v) * 60000).toISOString();
  }
  var until = null;
  function send(pos) {
    lastFix = pos.coords;
    var ll = [pos.coords.latitude, pos.coords.longitude];
    if (!mine) {
      mine = L.circleMarker(ll, { radius: 9, color: '#fff', weight: 3, fillColor: '#0b57d0', fillOpacity: 1 }).addTo(map);
      mineCircle = L.circle(ll, { radius: pos.coords.accuracy || 10, color: '#0b57d0', weight: 1, fillOpacity: 0.1 }).addTo(map);
      setMode(ll[0], ll[1], true);
    } else {
      mine.setLatLng(ll); mineCircle.setLatLng(ll); mineCircle.setRadius(pos.coords.accuracy || 10);
      setMode(ll[0], ll[1], false);
    }
    if (paused) return;
    api('PUT', '/api/v1/trips/' + trip + '/position',
        { latitude: pos.coords.latitude, longitude: pos.coords.longitude, accuracy: pos.coords.accuracy || 0, sharingUntil: until }).catch(function () {});
  }
  $('share-button').addEventListener('click', function () {
    if (!navigator.geolocation) return;
    until = sharingUntil();
    paused = false;
    if (watch !== null) navigator.geolocation.clearWatch(watch);
    watch = navigator.geolocation.watchPosition(send, function () {}, { enableHighAccuracy: true, maximumAge: 5000 });
    $('pause-button').hidden = false;
    $('pause-button').textContent = t('trip.pause');
  });
  $('pause-button').addEventListener('click', function () {
    paused = !paused;
    $('pause-button').textContent = t(paused ? 'trip.resume' : 'trip.pause');
    api('POST', '/api/v1/trips/' + trip + '/position/pause', { paused: paused }).catch(function () {});
  });
  $('radius').addEventListener('change', function () {
    var r = Number($('radius').value);
    if (socket && socket.readyState === 1 && r >= 1 && r <= 100000) socket.send(JSON.stringify({ type: 'radius', metres: r }));
  });

  // --- A tap on the map: the place of a new event, and (on the mountain) a ski route there ----
  var place = null, placeMarker = null, routeLayer = L.layerGroup().addTo(map);
  map.on('click', function (e) {
    place = e.latlng;
    if (!placeMarker) placeMarker = L.marker(place).addTo(map); else placeMarker.setLatLng(place);
    $('event-place').textContent = place.lat.toFixed(5) + ', ' + place.lng.toFixed(5);
    if (main.dataset.ski === '1' && mode === 'mountain') routeTo(place);
  });
  function routeTo(to) {
    // From where one is: the shared position, else asked once.
    if (!lastFix) {
      if (navigator.geolocation) navigator.geolocation.getCurrentPosition(function (p) { lastFix = p.coords; routeTo(to); }, function () {});
      return;
    }
    var from = [lastFix.latitude, lastFix.longitude];
    var level = $('ski-level').value;
    fetch('/api/v1/ski/route?from=' + from[0] + ',' + from[1] + '&to=' + to.lat + ',' + to.lng + '&level=' + level)
      .then(function (r) { return r.json(); }).then(function (route) {
        routeLayer.clearLayers();
        var list = $('ski-legs');
        list.textContent = '';
        if (!route.legs) { list.appendChild(el('li', 'muted', route.detail || '')); return; }
        route.legs.forEach(function (leg) {
          var colour = leg.kind === 'run' ? (leg.colour === 'black' ? token('--map-ink', '#111') : leg.colour) : leg.kind === 'lift' ? token('--map-ink', '#222') : '#777';
          L.polyline(leg.points.map(function (p) { return [p[0], p[1]]; }),
                     { color: colour, weight: 7, opacity: 0.9, dashArray: leg.kind === 'run' ? null : '6 6' }).addTo(routeLayer);
          var li = el('li', 'ski-leg ski-leg-' + leg.kind);
          li.dataset.difficulty = leg.difficulty || '';
          li.textContent = (leg.name || leg.kind) + ' · ' + (leg.difficulty || leg.liftKind || leg.kind) + ' · ' + leg.lengthMetres + ' m' +
            (leg.dropMetres ? ' · ↓' + leg.dropMetres + ' m' : '');
          list.appendChild(li);
        });
      }).catch(function () {});
  }

  // --- Events ------------------------------------------------------------------------------
  var events = {}, eventMarkers = {};
  function renderEvent(e) {
    events[e.id] = e;
    var list = $('events'), li = list.querySelector('li[data-event="' + e.id + '"]');
    if (!li) { li = el('li', 'event'); li.dataset.event = e.id; list.appendChild(li); }
    li.textContent = '';
    li.appendChild(el('strong', null, e.title));
    li.appendChild(el('span', 'muted', ' · ' + when(e.at) + ' · ' + (names[e.creator] || '')));
    if (e.details) li.appendChild(el('p', null, e.details));
    var counts = { going: 0, maybe: 0, notGoing: 0 };
    Object.keys(e.answers).forEach(function (k) { counts[e.answers[k]]++; });
    var summary = el('p', 'answers', t('trip.going') + ' ' + counts.going + ' · ' + t('trip.maybe') + ' ' + counts.maybe + ' · ' +
                     t('trip.notGoing') + ' ' + counts.notGoing);
    summary.dataset.going = counts.going;
    li.appendChild(summary);
    if (e.creator === me) {
      var who = el('ul', 'answer-list');
      Object.keys(e.answers).forEach(function (k) { who.appendChild(el('li', null, (names[k] || k) + ': ' + t('trip.' + e.answers[k]))); });
      li.appendChild(who);
    }
    if (e.invitees.indexOf(me) >= 0) {
      var row = el('p', 'rsvp');
      ['going', 'maybe', 'notGoing'].forEach(function (a) {
        var b = el('button', 'button' + (e.answers[me] === a ? '' : ' button-secondary'), t('trip.' + a));
        b.type = 'button';
        b.setAttribute('aria-pressed', e.answers[me] === a ? 'true' : 'false');
        b.dataset.answer = a;
        b.addEventListener('click', function () { api('PUT', '/api/v1/trips/' + trip + '/events/' + e.id + '/rsvp', { answer: a }).then(renderEvent); });
        row.appendChild(b);
      });
      li.appendChild(row);
    }
    if (!eventMarkers[e.id]) {
      eventMarkers[e.id] = L.marker([e.latitude, e.longitude]).addTo(map).bindTooltip(document.createTextNode(e.title));
    }
  }
  function renderChosen(members) {
    var box = $('event-people');
    Array.prototype.slice.call(box.querySelectorAll('label')).forEach(function (l) { box.removeChild(l); });
    members.forEach(function (m) {
      if (m.id === me) return;
      var label = el('label', 'check'), box2 = el('input');
      box2.type = 'checkbox'; box2.value = m.id;
      label.appendChild(box2); label.appendChild(document.createTextNode(' ' + m.displayName));
      box.appendChild(label);
    });
  }
  $('event-audience').addEventListener('change', function () { $('event-people').hidden = $('event-audience').value !== 'chosen'; });
  $('event-form').addEventListener('submit', function (ev) {
    ev.preventDefault();
    var at = new Date($('event-at').value), where = place || map.getCenter();
    var body = { title: $('event-title').value, at: at.toISOString(), latitude: where.lat, longitude: where.lng,
                 details: $('event-details').value, audience: $('event-audience').value };
    if (body.audience === 'nearby') body.radius = Number($('radius').value) || 2000;
    if (body.audience === 'chosen') {
      body.people = Array.prototype.slice.call($('event-people').querySelectorAll('input:checked')).map(function (i) { return i.value; });
    }
    api('POST', '/api/v1/trips/' + trip + '/events', body).then(function (e) {
      renderEvent(e);
      $('event-form').reset();
      $('event-form').closest('details').open = false;
    }).catch(function () {});
  });

  // --- Chat -------------------------------------------------------------------------------
  var conversation = 'trip:' + trip, oldest = null, newest = 0, unread = {};
  // The trip's conversation, or a direct one with a member (everyone on a trip is a friend).
  function openConversation(name) {
    conversation = name; oldest = null; newest = 0;
    $('chat-log').textContent = '';
    delete unread[name];
    renderConversations();
    api('GET', '/api/v1/chat/' + name + '?limit=50').then(function (page) {
      page.messages.forEach(function (m) { chatLine(m); });
      $('chat-older').hidden = !page.more;
      markRead();
    }).catch(function () {});
  }
  function renderConversations() {
    var select = $('chat-with');
    var keep = conversation;
    select.textContent = '';
    var all = [['trip:' + trip, main.dataset.tripName || '']].concat(Object.keys(names).filter(function (id) { return id !== me; })
      .sort(function (a, b) { return names[a].localeCompare(names[b]); }).map(function (id) { return ['person:' + id, names[id]]; }));
    all.forEach(function (c) {
      var option = el('option', null, c[1] + (unread[c[0]] ? ' (' + unread[c[0]] + ')' : ''));
      option.value = c[0];
      option.selected = c[0] === keep;
      select.appendChild(option);
    });
  }
  $('chat-with').addEventListener('change', function () { openConversation($('chat-with').value); });
  function chatLine(m, atTop) {
    var log = $('chat-log');
    if (log.querySelector('li[data-seq="' + m.sequence + '"]')) return;
    var li = el('li', m.author === me ? 'mine' : null);
    li.dataset.seq = m.sequence;
    li.appendChild(el('span', 'author', m.authorName));
    li.appendChild(el('span', 'text', m.text));
    li.appendChild(el('time', 'muted', when(m.at)));
    if (atTop) log.insertBefore(li, log.firstChild); else log.appendChild(li);
    if (oldest === null || m.sequence < oldest) oldest = m.sequence;
    if (m.sequence > newest) newest = m.sequence;
  }
  function markRead() {
    if (newest > 0 && document.visibilityState === 'visible') api('PUT', '/api/v1/chat/' + conversation + '/read', { upTo: newest }).catch(function () {});
  }
  $('chat-older').addEventListener('click', function () {
    api('GET', '/api/v1/chat/' + conversation + '?limit=50&before=' + oldest).then(function (page) {
      page.messages.slice().reverse().forEach(function (m) { chatLine(m, true); });
      $('chat-older').hidden = !page.more;
    });
  });
  $('chat-form').addEventListener('submit', function (ev) {
    ev.preventDefault();
    var text = $('chat-text').value;
    if (!text.trim()) return;
    api('POST', '/api/v1/chat/' + conversation, { text: text }).then(function (m) { chatLine(m); $('chat-text').value = ''; markRead(); }).catch(function () {});
  });
  document.addEventListener('visibilitychange', markRead);

  // --- Broadcasts ---------------------------------------------------------------------------
  function broadcastLine(b, atTop) {
    var list = $('broadcasts');
    if (list.querySelector('li[data-id="' + b.id + '"]')) return;
    var li = el('li', 'broadcast', b.text);
    li.dataset.id = b.id;
    li.appendChild(el('time', 'muted', ' · ' + when(b.at)));
    if (atTop) list.insertBefore(li, list.firstChild); else list.appendChild(li);
  }
  if (isHost) {
    $('broadcast-form').addEventListener('submit', function (ev) {
      ev.preventDefault();
      api('POST', '/api/v1/trips/' + trip + '/broadcasts', { text: $('broadcast-text').value }).then(function (r) {
        broadcastLine(r.broadcast, true); $('broadcast-text').value = '';
      }).catch(function () {});
    });
  }

  // Simulated travellers without leaving the page (sharing goes on); without the script the form posts.
  var simulate = document.querySelector('.trip-simulate');
  if (simulate) {
    simulate.addEventListener('submit', function (ev) {
      ev.preventDefault();
      fetch(simulate.action, { method: 'POST', credentials: 'same-origin', body: new URLSearchParams(new FormData(simulate)) })
        .then(function () { simulate.hidden = true; });
    });
  }

  // Broadcasts and invitations by Web Push, when the person asks for them.
  var notify = $('push-button');
  if (notify) {
    notify.hidden = !('serviceWorker' in navigator && 'PushManager' in window && window.Onward);
    notify.addEventListener('click', function () {
      window.Onward.subscribeMyPush(csrf).then(function (kept) {
        if (kept) { notify.disabled = true; notify.textContent = t('trip.notifyOn'); }
      }).catch(function () {});
    });
  }

  // --- The live channel ----------------------------------------------------------------------
  var socket = null, backoff = 1000;
  var status = document.querySelector('[data-connection]');
  function connect() {
    var scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
    socket = new WebSocket(scheme + location.host + '/live?trip=' + encodeURIComponent(trip) + '&radius=' + (Number($('radius').value) || 2000));
    socket.onopen = function () { backoff = 1000; if (status) status.hidden = true; main.dataset.live = 'open'; };
    socket.onclose = function () {
      main.dataset.live = 'closed';
      if (status) status.hidden = false;
      setTimeout(connect, backoff); backoff = Math.min(backoff * 2, 30000);
    };
    socket.onmessage = function (msg) {
      var m = JSON.parse(msg.data);
      switch (m.type) {
        case 'state':
          Object.keys(markers).forEach(hide);
          m.positions.forEach(showPosition);
          $('events').textContent = ''; m.events.forEach(renderEvent);
          m.chat.messages.forEach(function (x) { chatLine(x); });
          $('chat-older').hidden = !m.chat.more;
          $('broadcasts').textContent = ''; m.broadcasts.forEach(function (b) { broadcastLine(b); });
          markRead();
          break;
        case 'position': showPosition(m.position); break;
        case 'hidden': hide(m.person); break;
        case 'event': renderEvent(m.event); break;
        case 'chat':
          if (m.conversation === conversation) { chatLine(m.message); markRead(); }
          else if (m.message.author !== me) { unread[m.conversation] = (unread[m.conversation] || 0) + 1; renderConversations(); }
          break;
        case 'broadcast': broadcastLine(m.broadcast, true); break;
        case 'members': refreshMembers(); break;
        case 'left': socket.onclose = null; location.href = '/trips'; break;
      }
    };
  }
  // For tests and the curious: the map, and a tap at a place (as a finger would make).
  window.OnwardTrip = { map: map, tap: function (lat, lon) { map.fire('click', { latlng: L.latLng(lat, lon) }); } };
  refreshMembers().then(function () { return layersReady; }).then(function () {
    var c = skiBounds ? skiBounds.getCenter() : map.getCenter();
    setMode(c.lat, c.lng, true);
    connect();
  });
})();
