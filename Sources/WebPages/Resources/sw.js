/* Onward's service worker: shows commuting alerts, and trips' broadcasts and invitations, that arrive by Web Push while the page is in
   the background or closed, and brings the commute page back when one is tapped. */
'use strict';

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
