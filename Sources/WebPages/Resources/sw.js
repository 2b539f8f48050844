/* Onward's service worker: shows commuting alerts, and trips' broadcasts and invitations, that arrive by Web Push while the page is in
   the background or closed, and brings the commute page back when one is tapped. For a signed-in person it also keeps the
   timetables of their saved boards for when the phone has no signal (below). */
'use strict';

/* ---------- The timetable with no signal ---------- */

// What the person's phone keeps (`/api/v1/me/offline`): each page's copy (their saved boards as the timetable's next
// hours, and "My routes" as the list of them) stored at the page's own address, and the files those pages load. Only
// ever on a signed-in page's word ('offline-sync'): the worker keeps nothing on its own, so nothing of a signed-out
// visitor is kept. Signing out drops it all ('offline-clear', and the server's Clear-Site-Data).
var OFFLINE = 'onward-offline-v1';
var synced = { at: 0, version: null };
var syncing = null;

function clearOffline() {
  synced = { at: 0, version: null };
  return caches.delete(OFFLINE);
}

function keep(cache, page) {
  return fetch(page.copy, { credentials: 'same-origin', cache: 'no-store' }).then(function (response) {
    // Signed out meanwhile (a redirect to the sign-in page), or a failure: the last copy stays.
    if (!response.ok || response.redirected) throw new Error('not kept: ' + response.status);
    return cache.put(new URL(page.url, self.location.origin).href, response);
  });
}

// Made again when the person's routes changed, else at most once a minute (each page they open asks).
function syncOffline(version) {
  if (syncing) return syncing;
  if (version === synced.version && Date.now() - synced.at < 60000) return Promise.resolve(null);
  syncing = fetch('/api/v1/me/offline', { credentials: 'same-origin', cache: 'no-store' }).then(function (response) {
    if (response.status === 401 || response.status === 403) return clearOffline().then(function () { return 0; });
    if (!response.ok) throw new Error('pack: ' + response.status);
    return response.json().then(function (pack) {
      return caches.open(OFFLINE).then(function (cache) {
        var wanted = pack.pages.concat(pack.assets.map(function (a) { return { url: a }; })).map(function (p) {
          return new URL(p.url, self.location.origin).href;
        });
        var work = pack.pages.map(function (page) { return keep(cache, page).then(function () { return 1; }, function () { return 0; }); })
          .concat(pack.assets.map(function (asset) {
            // Versioned by their content: one kept stays right.
            return cache.match(asset).then(function (hit) { return hit || cache.add(asset); }).then(function () { return 0; }, function () { return 0; });
          }));
        return Promise.all(work).then(function (kept) {
          return cache.keys().then(function (keys) {
            return Promise.all(keys.filter(function (k) { return wanted.indexOf(k.url) < 0; }).map(function (k) { return cache.delete(k); }));
          }).then(function () {
            synced = { at: Date.now(), version: pack.routesVersion };
            return kept.reduce(function (a, b) { return a + b; }, 0);
          });
        });
      });
    });
  });
  var done = function () { syncing = null; };
  syncing.then(done, done);
  return syncing;
}

self.addEventListener('message', function (event) {
  var data = event.data || {};
  var reply = function (message) { if (event.source) event.source.postMessage(message); };
  if (data.type === 'offline-sync') {
    event.waitUntil(syncOffline(data.version).then(function (kept) { reply({ type: 'offline-ready', kept: kept }); },
                                                     function () { reply({ type: 'offline-failed' }); }));
  } else if (data.type === 'offline-clear') {
    event.waitUntil(clearOffline().then(function () { reply({ type: 'offline-cleared' }); }));
  }
});

// Pages come from the network; when it fails, a kept copy of the page asked for, else the kept "My routes" (which
// lists what is kept). Files under /assets/ likewise. Nothing is kept here: only `syncOffline` keeps.
self.addEventListener('fetch', function (event) {
  var request = event.request;
  if (request.method !== 'GET') return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  function kept(key) { return caches.match(key, { cacheName: OFFLINE }); }
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(function () {
      return kept(url.href).then(function (hit) { return hit || kept(new URL('/me', self.location.origin).href); })
        .then(function (hit) { return hit || Response.error(); });
    }));
  } else if (url.pathname.indexOf('/assets/') === 0) {
    event.respondWith(fetch(request).catch(function () {
      return kept(request.url).then(function (hit) { return hit || Response.error(); });
    }));
  }
});

/* ---------- Notifications ---------- */

self.addEventListener('install', function () { self.skipWaiting(); });
self.addEventListener('activate', function (event) { event.waitUntil(self.clients.claim()); });

// The payload is {"type": "alert", "alert": {at, kind, stopId, stopName, message}, "url": "/commute"}.
// The tag is the alert's kind and stop: the page in the foreground shows the same alert with the
// same tag, so one alert is one notification however it arrived.
function show(data) {
  // A trip's broadcast or invitation: {"title", "body", "url"}.
  if (data && data.title) {
    return self.registration.showNotification(data.title, {
      body: data.body || '', tag: 'onward-trip-' + (data.url || '') + '-' + data.title, icon: '/assets/icon.svg', data: { url: data.url || '/trips' }
    });
  }
  var alert = (data && data.alert) || {};
  return self.registration.showNotification(alert.stopName || 'Onward', {
    body: alert.message || '',
    tag: 'onward-' + (alert.kind || 'alert') + '-' + (alert.stopId || ''),
    vibrate: [200, 100, 200],
    icon: '/assets/icon.svg',
    data: { url: (data && data.url) || '/commute', kind: alert.kind || '' }
  });
}

self.addEventListener('push', function (event) {
  var data = null;
  try { data = event.data ? event.data.json() : null; } catch (e) { data = null; }
  event.waitUntil(show(data));
});

self.addEventListener('notificationclick', function (event) {
  event.notification.close();
  var url = (event.notification.data && event.notification.data.url) || '/commute';
  event.waitUntil(self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(function (list) {
    for (var i = 0; i < list.length; i++) {
      if (list[i].url.indexOf(url) >= 0 && 'focus' in list[i]) return list[i].focus();
    }
    return self.clients.openWindow(url);
  }));
});
