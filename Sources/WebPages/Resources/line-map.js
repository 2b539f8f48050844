// The map of a service (`#service-map`) or of a route (`#route-map`): the way its vehicles go (the feed's shapes, or
// the stops joined), the stops, and the vehicles, moved whenever the live channel redraws the page's live part. Drawn
// on a plain background unless the operator configured base tiles. The page says the same in words beside it.
(function () {
  'use strict';
  if (typeof L === 'undefined') return;
  var box = document.querySelector('.line-map');
  if (!box) return;

  // Google's encoded polyline, with coordinates in 1e-7 degrees (`[PathPoint].encodedPolyline`).
  function decode(text) {
    var points = [], i = 0, lat = 0, lon = 0;
    function next() {
      var result = 0, shift = 0, b;
      do { b = text.charCodeAt(i++) - 63; result |= (b & 0x1f) << shift; shift += 5; } while (b >= 0x20);
      return (result & 1) ? ~(result >> 1) : (result >> 1);
    }
    while (i < text.length) { lat += next(); lon += next(); points.push([lat / 1e7, lon / 1e7]); }
    return points;
  }
  function token(name, fallback) {
    return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
  }

  // `data-shapes`: one encoded line per way the vehicles go, space-separated; without it, the stops joined.
  var stops = JSON.parse(box.dataset.stops || '[]');
  var lines = (box.dataset.shapes || '').split(' ').filter(Boolean).map(decode);
  if (!lines.length) lines = [stops.map(function (s) { return [s[0], s[1]]; })];
  lines = lines.filter(function (l) { return l.length >= 2; });
  if (!lines.length) { box.hidden = true; return; }
  var map = L.map(box, { zoomControl: true, attributionControl: true, keyboard: true });
  map.attributionControl.setPrefix('<a href="/assets/leaflet/LICENSE">Leaflet</a>');
  if (box.dataset.tiles) L.tileLayer(box.dataset.tiles, { maxZoom: 19, attribution: box.dataset.tileAttribution || '' }).addTo(map);
  var colour = box.dataset.color ? '#' + box.dataset.color : token('--color-accent', '#0b57d0');
  var bounds = L.latLngBounds([]);
  lines.forEach(function (line) {
    var path = L.polyline(line, { color: colour, weight: 5, opacity: 0.9, className: 'line-map-line' }).addTo(map);
    bounds.extend(path.getBounds());
  });
  stops.forEach(function (s) {
    L.circleMarker([s[0], s[1]], { radius: 4, color: token('--color-text', '#121826'), weight: 2, fillColor: token('--color-surface', '#fff'),
                                   fillOpacity: 1, className: 'line-map-stop' })
      .bindTooltip(document.createTextNode(s[2])).addTo(map);
  });
  map.fitBounds(bounds, { padding: [16, 16] });

  // The vehicles: where the live part's `[data-vehicle-lat]` elements say they are (each named by `data-vehicle-key`,
  // so a marker follows its own vehicle), moved at each redraw; one that is gone from the list leaves the map.
  var live = document.getElementById(box.dataset.livePart);
  var markers = {};
  function place() {
    var seen = {}, at = [];
    var items = live ? live.querySelectorAll('[data-vehicle-lat]') : [];
    Array.prototype.forEach.call(items, function (item, i) {
      var lat = parseFloat(item.dataset.vehicleLat), lon = parseFloat(item.dataset.vehicleLon);
      if (isNaN(lat) || isNaN(lon)) return;
      var key = item.dataset.vehicleKey || String(i), label = item.dataset.vehicleLabel || '';
      var marker = markers[key];
      if (!marker) {
        // Dark with a white ring, so it stands apart from the line whatever the route's colour.
        marker = markers[key] = L.circleMarker([lat, lon], { radius: 9, color: token('--color-surface', '#fff'), weight: 3,
                                                             fillColor: token('--color-text', '#121826'), fillOpacity: 1,
                                                             className: 'line-map-vehicle' }).addTo(map);
        marker.bindTooltip(document.createTextNode(label));
      } else {
        marker.setLatLng([lat, lon]);
        marker.setTooltipContent(document.createTextNode(label));
      }
      seen[key] = true;
      at.push(key + '=' + lat.toFixed(6) + ',' + lon.toFixed(6));
    });
    Object.keys(markers).forEach(function (key) {
      if (!seen[key]) { map.removeLayer(markers[key]); delete markers[key]; }
    });
    // Where the markers are, for anyone (and any test) reading the page: the same numbers the markers have.
    if (at.length) box.setAttribute('data-vehicles-at', at.join(';')); else box.removeAttribute('data-vehicles-at');
  }
  place();
  if (live && 'MutationObserver' in window) new MutationObserver(place).observe(live, { childList: true, subtree: false });
})();
