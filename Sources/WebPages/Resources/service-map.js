// The service page's map: the way the vehicle goes (the feed's shape, or its stops joined), its stops, and the
// vehicle, moved whenever the live channel redraws the page's live part. Drawn on a plain background unless the
// operator configured base tiles. The page lists the same stops and says where the vehicle is in words.
(function () {
  'use strict';
  var box = document.getElementById('service-map');
  if (!box || typeof L === 'undefined') return;

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

  var stops = JSON.parse(box.dataset.stops || '[]');
  var line = box.dataset.shape ? decode(box.dataset.shape) : stops.map(function (s) { return [s[0], s[1]]; });
  if (line.length < 2) { box.hidden = true; return; }
  var map = L.map(box, { zoomControl: true, attributionControl: true, keyboard: true });
  map.attributionControl.setPrefix('<a href="/assets/leaflet/LICENSE">Leaflet</a>');
  if (box.dataset.tiles) L.tileLayer(box.dataset.tiles, { maxZoom: 19, attribution: box.dataset.tileAttribution || '' }).addTo(map);
  var colour = box.dataset.color ? '#' + box.dataset.color : token('--color-accent', '#0b57d0');
  var path = L.polyline(line, { color: colour, weight: 5, opacity: 0.9, className: 'service-map-line' }).addTo(map);
  stops.forEach(function (s) {
    L.circleMarker([s[0], s[1]], { radius: 4, color: token('--color-text', '#121826'), weight: 2, fillColor: token('--color-surface', '#fff'),
                                   fillOpacity: 1, className: 'service-map-stop' })
      .bindTooltip(document.createTextNode(s[2])).addTo(map);
  });
  map.fitBounds(path.getBounds(), { padding: [16, 16] });

  // The vehicle: where the page's live part says it is (`data-vehicle-lat/-lon`), moved at each redraw.
  var vehicle = null;
  function place() {
    var fragment = document.querySelector('#service-live .service-fragment');
    var lat = fragment && parseFloat(fragment.dataset.vehicleLat), lon = fragment && parseFloat(fragment.dataset.vehicleLon);
    if (!fragment || isNaN(lat) || isNaN(lon)) {
      if (vehicle) { map.removeLayer(vehicle); vehicle = null; }
      box.removeAttribute('data-vehicle-at');
      return;
    }
    var label = fragment.dataset.vehicleLabel || '';
    if (!vehicle) {
      // Dark with a white ring, so it stands apart from the line whatever the route's colour.
      vehicle = L.circleMarker([lat, lon], { radius: 9, color: token('--color-surface', '#fff'), weight: 3, fillColor: token('--color-text', '#121826'),
                                            fillOpacity: 1, className: 'service-map-vehicle' }).addTo(map);
      vehicle.bindTooltip(document.createTextNode(label));
    } else {
      vehicle.setLatLng([lat, lon]);
      vehicle.setTooltipContent(document.createTextNode(label));
    }
    // Where the marker is, for anyone (and any test) reading the page: the same numbers the marker has.
    box.setAttribute('data-vehicle-at', lat.toFixed(6) + ',' + lon.toFixed(6));
  }
  place();
  var live = document.getElementById('service-live');
  if (live && 'MutationObserver' in window) new MutationObserver(place).observe(live, { childList: true, subtree: false });
})();
