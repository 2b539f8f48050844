extension Assets {
    /// The dark colour tokens, used twice below: when the reader chooses dark,
    /// and when the device is dark and the reader has not chosen.
    static let darkTokens = #"""
  color-scheme: dark;
  --color-bg: #0d1117;
  --color-surface: #161b22;
  --color-surface-2: #1f2630;
  --color-text: #e8edf3;
  --color-muted: #a3adba;
  --color-border: #303843;
  --color-accent: #78b4ff;
  --color-accent-soft: #1a2a42;
  --color-on-accent: #0d1117;
  --color-focus: #9ccaff;
  --color-on-time: #4cc66a;
  --color-late: #f2b441;
  --color-early: #86c3ff;
  --color-cancelled: #ff8279;
  --color-departed: #8b95a3;
  --color-passed: #8b95a3;
  --color-warn-bg: #2b2008;
  --color-warn-border: #9c6a0b;
  --color-warn-text: #f8d98e;
  --color-bad-bg: #3a1118;
  --color-bad-border: #94303c;
  --color-bad-text: #ffc0bb;
  --color-simulated: #c9b2ff;
  --color-simulated-bg: #2a1e48;
  --color-badge: #56606e;
  --color-vehicle: #78b4ff;
  --shadow: 0 1px 2px rgba(0, 0, 0, 0.4);
  --shadow-raised: 0 8px 24px rgba(0, 0, 0, 0.5);
"""#

    /// The stylesheet. Colours are named tokens (custom properties) defined
    /// once for light and once for dark; `data-theme="system"` follows the
    /// device, `light` and `dark` force one. Phone first: the base rules are
    /// for a 360 px screen, wider screens add room.
    public static let css = #"""
/* Onward: the web app's one stylesheet. No inline styles anywhere (CSP). */

/* ---------- Colour tokens ---------- */

:root {
  color-scheme: light;
  --color-bg: #f3f5f8;
  --color-surface: #ffffff;
  --color-surface-2: #eef1f5;
  --color-text: #121826;
  --color-muted: #4d5665;
  --color-border: #d8dde5;
  --color-accent: #0b57d0;
  --color-accent-soft: #e3ecfb;
  --color-on-accent: #ffffff;
  --color-focus: #0b57d0;
  --color-on-time: #0a7a3d;
  --color-late: #9a4a00;
  --color-early: #0b5cad;
  --color-cancelled: #c01b2e;
  --color-departed: #6a7280;
  /* Text of stops passed and services gone: quieter than muted, still 4.5:1 on every surface. */
  --color-passed: #646c79;
  --color-warn-bg: #fff5e0;
  --color-warn-border: #e9a53a;
  --color-warn-text: #5f3400;
  --color-bad-bg: #fdecee;
  --color-bad-border: #e8909a;
  --color-bad-text: #7d0f1d;
  --color-simulated: #6427c9;
  --color-simulated-bg: #f0e8ff;
  --color-badge: #4d5665;
  --color-vehicle: #0b57d0;
  --shadow: 0 1px 2px rgba(16, 24, 40, 0.06), 0 1px 3px rgba(16, 24, 40, 0.08);
  --shadow-raised: 0 8px 24px rgba(16, 24, 40, 0.16);
}

/* Dark, forced. */
:root[data-theme="dark"] {
\#(darkTokens)
}

/* Dark, because the device says so and the reader has not chosen. */
@media (prefers-color-scheme: dark) {
  :root[data-theme="system"] {
\#(darkTokens)
  }
}

/* ---------- Base ---------- */

*, *::before, *::after { box-sizing: border-box; }

html {
  -webkit-text-size-adjust: 100%;
  text-size-adjust: 100%;
}

body {
  margin: 0;
  min-height: 100vh;
  display: flex;
  flex-direction: column;
  background: var(--color-bg);
  color: var(--color-text);
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial, sans-serif;
  font-size: 1rem;
  line-height: 1.5;
}

main { flex: 1 0 auto; padding-top: 20px; padding-bottom: 32px; }
main:focus { outline: none; }

h1, h2, h3 { line-height: 1.25; margin: 0 0 8px; }
h1 { font-size: 1.625rem; letter-spacing: -0.01em; }
h2 { font-size: 1.125rem; }
h3 { font-size: 1rem; }
p { margin: 0 0 12px; }

a { color: var(--color-accent); text-underline-offset: 0.15em; }
a:hover { text-decoration-thickness: 2px; }

/* One focus style for everything: thick, high-contrast, never removed. */
:focus-visible {
  outline: 3px solid var(--color-focus);
  outline-offset: 2px;
  border-radius: 4px;
}

time, .col-time, .call-times { font-variant-numeric: tabular-nums; }

.wrap { width: 100%; max-width: 980px; margin: 0 auto; padding-left: 16px; padding-right: 16px; }

.visually-hidden {
  position: absolute !important;
  width: 1px; height: 1px;
  margin: -1px; padding: 0; border: 0;
  overflow: hidden;
  clip: rect(0 0 0 0);
  clip-path: inset(50%);
  white-space: nowrap;
}

.skip-link {
  position: absolute; left: 8px; top: -48px; z-index: 10;
  padding: 10px 14px; border-radius: 8px;
  background: var(--color-accent); color: var(--color-on-accent); font-weight: 600;
}
.skip-link:focus { top: 8px; }

[hidden] { display: none !important; }

.icon { fill: currentColor; stroke: currentColor; stroke-width: 0; flex: none; }
.icon [fill="none"] { fill: none; stroke-width: 2; }

/* ---------- Header and footer ---------- */

.site-header {
  background: var(--color-surface);
  border-bottom: 1px solid var(--color-border);
}
.header-inner { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0 12px; min-height: 60px; }

.brand {
  display: inline-flex; align-items: center; gap: 10px;
  color: var(--color-text); text-decoration: none;
  font-weight: 800; font-size: 1.25rem; letter-spacing: -0.02em;
  min-height: 44px;
}
.brand-bg { fill: var(--color-accent); }
.brand-arrow { stroke: var(--color-on-accent); }

.site-nav ul { display: flex; gap: 4px; list-style: none; margin: 0; padding: 0; }
.site-nav a {
  display: inline-flex; align-items: center; min-height: 44px; padding: 0 12px;
  border-radius: 999px; color: var(--color-text); text-decoration: none; font-weight: 600;
}
.site-nav a:hover { background: var(--color-surface-2); }
.site-nav a[aria-current="page"] { background: var(--color-accent-soft); color: var(--color-accent); }

.site-footer {
  flex: none;
  border-top: 1px solid var(--color-border);
  background: var(--color-surface);
  color: var(--color-muted);
  font-size: 0.875rem;
}
.footer-inner { padding-top: 20px; padding-bottom: 28px; }
.prefs { display: flex; flex-wrap: wrap; gap: 12px 28px; margin-bottom: 16px; }
.pref { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 10px; }
.pref-label { font-weight: 600; color: var(--color-text); }
.segmented {
  display: inline-flex; padding: 3px; gap: 2px;
  border: 1px solid var(--color-border); border-radius: 999px; background: var(--color-surface-2);
}
.segment {
  display: inline-flex; align-items: center; gap: 6px;
  min-height: 40px; padding: 0 12px; border-radius: 999px;
  color: var(--color-text); text-decoration: none; font-weight: 500;
}
.segment:hover { background: var(--color-surface); }
.segment[aria-current="true"] {
  background: var(--color-surface); box-shadow: var(--shadow); font-weight: 700; color: var(--color-accent);
}
.credits-title { font-size: 0.875rem; margin: 0 0 4px; color: var(--color-text); }
.credits ul { margin: 0 0 12px; padding: 0; list-style: none; }
.about { margin: 0; }

/* ---------- Shared pieces ---------- */

.page-head { margin-bottom: 16px; }
.eyebrow {
  display: flex; flex-wrap: wrap; align-items: center; gap: 8px;
  margin: 0 0 4px; color: var(--color-muted); font-size: 0.875rem; font-weight: 600;
  text-transform: uppercase; letter-spacing: 0.05em;
}
.lede { color: var(--color-muted); font-size: 1.0625rem; }

.panel {
  background: var(--color-surface); border: 1px solid var(--color-border); border-radius: 14px;
  box-shadow: var(--shadow); padding: 16px; margin-top: 16px;
}
.panel h2 { margin: 0; }
.panel-head { display: flex; align-items: center; justify-content: space-between; gap: 12px; flex-wrap: wrap; margin-bottom: 8px; }
.panel-status { color: var(--color-muted); margin: 8px 0 0; }

.button {
  display: inline-flex; align-items: center; justify-content: center; gap: 8px;
  min-height: 44px; padding: 0 16px; border-radius: 10px;
  border: 1px solid var(--color-border); background: var(--color-surface); color: var(--color-text);
  font: inherit; font-weight: 600; text-decoration: none; cursor: pointer;
}
.button:hover { background: var(--color-surface-2); }
.button-primary { background: var(--color-accent); border-color: var(--color-accent); color: var(--color-on-accent); }
.button-primary:hover { background: var(--color-accent); filter: brightness(1.08); }
.button-quiet { border-color: transparent; background: transparent; color: var(--color-accent); }

.badge {
  display: inline-flex; align-items: center; gap: 4px;
  padding: 1px 8px; border-radius: 999px; font-size: 0.75rem; font-weight: 700; letter-spacing: 0.02em;
  white-space: nowrap;
}
.badge-simulated { background: var(--color-simulated-bg); color: var(--color-simulated); }
.badge-added { background: var(--color-accent-soft); color: var(--color-accent); }

.empty-state {
  background: var(--color-surface); border: 1px dashed var(--color-border); border-radius: 14px;
  padding: 24px 16px; text-align: center; color: var(--color-muted);
}
.empty-state p:last-child { margin-bottom: 0; }
.note-line { color: var(--color-muted); font-size: 0.875rem; margin-top: 12px; }
.more-link { margin-top: 20px; font-size: 0.9375rem; }

/* Banners: stale data, unavailable sources, a cancelled service. */
.banner {
  margin: 0 0 12px; padding: 10px 14px;
  border: 1px solid; border-left-width: 5px; border-radius: 10px;
}
.banner strong { margin-right: 4px; }
.banner-warn { background: var(--color-warn-bg); border-color: var(--color-warn-border); color: var(--color-warn-text); }
.banner-bad { background: var(--color-bad-bg); border-color: var(--color-bad-border); color: var(--color-bad-text); }

/* The live-data line: a green dot and when it was updated, or a grey one. */
.live-line {
  display: flex; flex-wrap: wrap; align-items: center; gap: 6px 10px;
  margin: 0 0 12px; color: var(--color-muted); font-size: 0.875rem;
}
.live-note { flex-basis: 100%; font-size: 0.8125rem; }
.live-dot {
  display: inline-block; width: 9px; height: 9px; border-radius: 50%;
  background: var(--color-on-time);
}
.live-dot.is-off { background: var(--color-departed); }
.live-line-static { display: block; }
.live-line-static .live-dot { margin-right: 4px; vertical-align: 1px; }
@keyframes pulse { 50% { opacity: 0.45; } }

/* The connection state, above the live container. */
.live-bar {
  display: flex; align-items: center; justify-content: flex-end; gap: 12px;
  min-height: 32px; margin-bottom: 4px; font-size: 0.875rem;
}
.connection { display: inline-flex; align-items: center; gap: 6px; margin-right: auto; color: var(--color-muted); font-weight: 600; }
.connection::before {
  content: ""; width: 8px; height: 8px; border-radius: 50%; background: var(--color-departed);
}
.connection[data-state="live"]::before { background: var(--color-on-time); animation: pulse 2.4s ease-in-out infinite; }
.connection[data-state="reconnecting"], .connection[data-state="paused"] { color: var(--color-late); }
.connection[data-state="reconnecting"]::before, .connection[data-state="paused"]::before { background: var(--color-late); }
.refresh-link { display: inline-flex; align-items: center; min-height: 44px; }
.js-live .refresh-link { display: none; }

/* ---------- Line badges, statuses, platforms ---------- */

.line-badge {
  display: inline-block; min-width: 2.4em; padding: 2px 7px;
  border-radius: 6px; text-align: center;
  background: var(--color-badge); color: #ffffff;
  font-size: 0.8125rem; font-weight: 800; letter-spacing: 0.02em; line-height: 1.4;
  text-transform: none;
}
/* The script sets --line-color from data-color (validated hex) and adds .has-color. */
.line-badge.has-color { background: var(--line-color); }
.line-badge.has-color.ink-dark { color: #111111; }
.line-badge.has-color.ink-light { color: #ffffff; }
.route-name { text-transform: none; letter-spacing: 0; font-weight: 600; }

.status { font-weight: 700; font-size: 0.9375rem; }
.status-on-time, .status-late, .status-early, .status-cancelled {
  display: inline-flex; align-items: baseline; gap: 6px;
}
.status-on-time::before, .status-late::before, .status-early::before, .status-cancelled::before {
  content: ""; flex: none; width: 8px; height: 8px; border-radius: 50%; background: currentColor;
  transform: translateY(-1px);
}
.status-on-time { color: var(--color-on-time); }
.status-late { color: var(--color-late); }
.status-early { color: var(--color-early); }
.status-cancelled { color: var(--color-cancelled); }
.status-departed, .status-muted { color: var(--color-muted); font-weight: 600; }

.platform {
  display: inline-block; min-width: 2em; padding: 1px 6px;
  border: 1.5px solid var(--color-border); border-radius: 6px;
  font-weight: 700; text-align: center; white-space: nowrap;
}
/* A changed platform: amber, with a mark, so nobody misses it. */
.platform-changed {
  background: var(--color-warn-bg); border-color: var(--color-warn-border); color: var(--color-warn-text);
}
.platform-changed-label {
  display: block; margin-top: 2px;
  color: var(--color-late); font-size: 0.6875rem; font-weight: 800; text-transform: uppercase; letter-spacing: 0.04em;
}
.row-notes .platform-changed-label, .call-notes .platform-changed-label { display: inline; margin: 0; }

/* ---------- Search and suggestions ---------- */

.hero { padding: 8px 0 4px; }
.hero h1 { font-size: 1.75rem; }
.field-label { display: block; font-weight: 600; margin-bottom: 6px; }
.search-row { display: flex; gap: 8px; }
.combo { position: relative; flex: 1 1 auto; min-width: 0; }
input[type="search"] {
  width: 100%; min-height: 48px; padding: 0 14px;
  border: 1.5px solid var(--color-border); border-radius: 10px;
  background: var(--color-surface); color: var(--color-text);
  font: inherit; font-size: 1.0625rem; /* 17 px: no zoom on focus on phones */
}
input[type="search"]::placeholder { color: var(--color-muted); opacity: 1; }
input[type="search"]:focus-visible { outline-offset: 0; border-color: var(--color-focus); }
.search-row .button { min-height: 48px; flex: none; }

.suggestions, .suggestions-status {
  position: absolute; left: 0; right: 0; top: calc(100% + 4px); z-index: 20;
  margin: 0; background: var(--color-surface);
  border: 1px solid var(--color-border); border-radius: 12px; box-shadow: var(--shadow-raised);
}
.suggestions { list-style: none; padding: 4px; max-height: 60vh; overflow-y: auto; }
.suggestions-status { padding: 12px 14px; color: var(--color-muted); }
.suggestion {
  display: flex; flex-direction: column; justify-content: center;
  min-height: 48px; padding: 6px 12px; border-radius: 8px; cursor: pointer;
}
.suggestion:hover, .suggestion[aria-selected="true"] { background: var(--color-accent-soft); }
.suggestion[aria-selected="true"] { outline: 2px solid var(--color-accent); outline-offset: -2px; }

.stop-list { list-style: none; margin: 8px -16px -16px; padding: 0; }
.results .stop-list, .panel > .stop-list:only-child { margin-top: 0; }
.stop-list li + li { border-top: 1px solid var(--color-border); }
.stop-item, .suggestion {
  color: var(--color-text); text-decoration: none;
}
.stop-item {
  position: relative;
  display: flex; flex-direction: column; justify-content: center; min-height: 56px; padding: 8px 44px 8px 16px;
}
/* A chevron: the row leads somewhere. */
.stop-item::after {
  content: ""; position: absolute; right: 20px; top: 50%; width: 8px; height: 8px;
  border-right: 2px solid var(--color-muted); border-bottom: 2px solid var(--color-muted);
  transform: translateY(-50%) rotate(-45deg);
}
.stop-item:hover { background: var(--color-surface-2); }
.stop-list li:last-child .stop-item { border-radius: 0 0 14px 14px; }
.stop-name { font-weight: 600; }
.stop-meta { color: var(--color-muted); font-size: 0.875rem; }
.result-count { color: var(--color-muted); font-size: 0.875rem; }

/* ---------- Board ---------- */

.tabs { display: flex; gap: 4px; margin-top: 12px; border-bottom: 1px solid var(--color-border); }
.tab {
  display: inline-flex; align-items: center; min-height: 44px; padding: 0 14px; margin-bottom: -1px;
  border-bottom: 3px solid transparent; color: var(--color-muted); font-weight: 700; text-decoration: none;
}
.tab:hover { color: var(--color-text); }
.tab[aria-current="page"] { color: var(--color-text); border-bottom-color: var(--color-accent); }

.filter-box { margin: 0 0 12px; }
.filter-box > summary {
  display: inline-flex; align-items: center; gap: 6px; min-height: 44px; padding: 0 4px;
  color: var(--color-accent); font-weight: 600; cursor: pointer; list-style: none;
}
.filter-box > summary::-webkit-details-marker { display: none; }
.filter-box > summary::before { content: "\25B8"; transition: transform 0.15s; }
.filter-box[open] > summary::before { transform: rotate(90deg); }
.filter .field-label { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
.filter-active {
  display: flex; flex-wrap: wrap; align-items: center; gap: 8px;
  margin: 0 0 12px; padding: 8px 12px; border-radius: 10px;
  background: var(--color-accent-soft); font-weight: 600;
}
.chip-link { font-weight: 600; }

.board {
  width: 100%; border-collapse: separate; border-spacing: 0; table-layout: auto;
  background: var(--color-surface); border: 1px solid var(--color-border); border-radius: 14px;
  box-shadow: var(--shadow); overflow: hidden;
}
.board caption { caption-side: top; text-align: right; padding: 0 2px 6px; color: var(--color-muted); font-size: 0.8125rem; }
.board th {
  padding: 10px 8px; text-align: left; vertical-align: bottom;
  background: var(--color-surface-2); border-bottom: 1px solid var(--color-border);
  color: var(--color-muted); font-size: 0.75rem; font-weight: 700; text-transform: uppercase; letter-spacing: 0.05em;
}
.board td { padding: 12px 8px; vertical-align: top; border-bottom: 1px solid var(--color-border); }
.board tbody tr:last-child td { border-bottom: 0; }
.board th:first-child, .board td:first-child { padding-left: 12px; }
.board th:last-child, .board td:last-child { padding-right: 12px; }
.board tbody tr { position: relative; }
.board tbody tr:hover { background: var(--color-surface-2); }

.col-time { width: 4.2em; white-space: nowrap; }
.col-time .time-scheduled, .col-time .time-expected { font-size: 1.125rem; font-weight: 800; }
.time-expected { font-weight: 800; }
/* The scheduled time under an expected one that differs: struck, secondary. */
.time-was { display: block; font-size: 0.875rem; font-weight: 500; color: var(--color-muted); }
/* Phone: the line and platform columns fold into the destination cell. */
.col-line, .col-platform { display: none; }
.col-status { width: 7.2em; }
.col-status .status { font-size: 0.8125rem; }
.col-dest { overflow-wrap: anywhere; }

/* The whole row is one link to the service (the link's ::after covers it). */
.row-link { color: var(--color-text); text-decoration: none; font-weight: 700; font-size: 1.0625rem; }
.row-link::after { content: ""; position: absolute; inset: 0; }
.row-link:focus-visible { outline: none; }
.row-link:focus-visible::after { outline: 3px solid var(--color-focus); outline-offset: -3px; border-radius: 6px; }
.row-notes { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 8px; margin-top: 4px; font-size: 0.8125rem; color: var(--color-muted); }
.via-time { font-weight: 600; color: var(--color-text); }
.narrow-only .platform { font-size: 0.75rem; padding: 0 5px; }
.row-alert {
  display: inline-grid; place-items: center; width: 20px; height: 20px; border-radius: 50%;
  background: var(--color-warn-border); color: #1b1300; font-size: 0.75rem; font-weight: 900;
  vertical-align: middle;
}

/* Cancelled and skipped rows stay on the board, struck through. */
.is-cancelled .time-scheduled, .is-cancelled .row-link, .is-skipped .time-scheduled, .is-skipped .row-link {
  text-decoration: line-through; text-decoration-thickness: 2px;
}
.is-cancelled .row-link, .is-skipped .row-link, .is-cancelled .col-time, .is-skipped .col-time { color: var(--color-muted); }
.is-cancelled s, .is-skipped s { text-decoration-color: var(--color-cancelled); }
/* Gone: quieter by colour, not opacity (opacity took muted text under 4.5:1). */
.is-departed .col-time, .is-departed .row-link, .is-departed .row-notes, .is-departed .via-time, .is-departed .status { color: var(--color-passed); }

/* ---------- Alerts ---------- */

.alerts { margin: 0 0 16px; }
.alerts-other { margin-top: 24px; }
.section-title { font-size: 1rem; color: var(--color-muted); margin-bottom: 8px; }
.alert-list { list-style: none; margin: 0; padding: 0; display: grid; gap: 12px; }
.alert {
  --sev: var(--color-muted);
  background: var(--color-surface); border: 1px solid var(--color-border); border-left: 5px solid var(--sev);
  border-radius: 12px; padding: 12px 16px; box-shadow: var(--shadow);
}
.alert.severity-severe { --sev: var(--color-cancelled); }
.alert.severity-warning { --sev: var(--color-warn-border); }
.alert.severity-info { --sev: var(--color-accent); }
.alerts-high .alert.severity-severe { background: var(--color-bad-bg); }
.alerts-high .alert.severity-warning { background: var(--color-warn-bg); }
.alert-meta { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 10px; margin-bottom: 6px; font-size: 0.8125rem; }
.severity {
  padding: 1px 8px; border-radius: 999px; font-weight: 800; font-size: 0.6875rem;
  text-transform: uppercase; letter-spacing: 0.06em; color: #ffffff; background: var(--color-badge);
}
.severity.severity-severe { background: #b3132a; }
.severity.severity-warning { background: #8a4b00; }
.severity.severity-info { background: #0b57d0; }
.alert-kind { color: var(--color-muted); font-weight: 600; }
.alert-title { font-size: 1.0625rem; margin: 0 0 6px; }
.alert-body { color: var(--color-text); }
.alert-body p { margin: 0 0 6px; }
.alert-facts { display: grid; gap: 4px; margin: 8px 0 0; font-size: 0.875rem; }
.alert-facts div { display: flex; gap: 8px; }
.alert-facts dt { flex: none; min-width: 5.5em; color: var(--color-muted); font-weight: 600; }
.alert-facts dd { margin: 0; }
.alert-more { margin: 8px 0 0; font-weight: 600; }
.alert-more a { display: inline-flex; align-items: center; min-height: 44px; }

/* ---------- Service: the line diagram ---------- */

.service-head h1 { margin-top: 4px; }
.service-meta { color: var(--color-muted); margin: 0; }
.vehicle-line {
  display: flex; align-items: center; gap: 8px; margin: 0 0 12px; padding: 10px 14px;
  background: var(--color-accent-soft); border-radius: 10px; font-weight: 600;
}
.vehicle-line .vehicle-icon { color: var(--color-vehicle); }

.calls {
  --line: var(--line-color, var(--color-accent));
  list-style: none; margin: 0; padding: 8px 0;
  background: var(--color-surface); border: 1px solid var(--color-border); border-radius: 14px; box-shadow: var(--shadow);
}
.call {
  position: relative;
  display: grid; grid-template-columns: minmax(0, 1fr) auto; column-gap: 12px; align-items: start;
  min-height: 60px; padding: 10px 14px 10px 52px;
}
/* The line: a bar through every call, starting at the first dot and ending at the last. */
.call::before {
  content: ""; position: absolute; left: 24px; width: 4px; top: 0; bottom: 0; background: var(--line);
}
.call.is-first::before { top: 22px; }
.call.is-last::before { bottom: auto; height: 22px; }
.call.is-first.is-last::before { display: none; }
.call.is-passed::before { background: var(--color-border); }
.call.is-cancelled::before {
  background: repeating-linear-gradient(to bottom, var(--color-cancelled) 0 6px, transparent 6px 11px);
}
.call-dot {
  position: absolute; left: 17px; top: 15px; width: 18px; height: 18px; border-radius: 50%;
  background: var(--color-surface); border: 4px solid var(--line); z-index: 1;
}
.call.is-first .call-dot, .call.is-last .call-dot { width: 22px; height: 22px; left: 15px; top: 13px; background: var(--line); }
.call.is-passed .call-dot { border-color: var(--color-departed); background: var(--color-departed); }
.call.is-skipped .call-dot, .call.is-cancelled .call-dot { border-style: dashed; background: var(--color-surface); border-color: var(--color-cancelled); }
.call-main { grid-column: 1; grid-row: 1 / span 2; min-width: 0; }
.call-name { color: var(--color-text); font-weight: 700; text-decoration: none; overflow-wrap: anywhere; }
.call-name:hover { text-decoration: underline; }
.call-notes { display: flex; flex-wrap: wrap; gap: 4px 8px; margin-top: 4px; font-size: 0.8125rem; color: var(--color-muted); }
.call-notes .platform { font-size: 0.75rem; padding: 0 6px; }
.call-times { grid-column: 2; text-align: right; font-weight: 700; }
.call-time { display: block; white-space: nowrap; }
.call-time .time-was { display: inline; margin-left: 6px; }
.time-label { color: var(--color-muted); font-weight: 500; font-size: 0.8125rem; }
.call-status { grid-column: 2; text-align: right; }
.call-status .status { font-size: 0.8125rem; }
/* Passed: quieter by colour, not opacity (muted at 0.75 opacity was #7a808c on white, 3.96:1). */
.call.is-passed .call-name, .call.is-passed .call-times, .call.is-passed .call-notes, .call.is-passed .time-label,
.call.is-passed .call-status .status { color: var(--color-passed); }
.call.is-skipped .call-name, .call.is-cancelled .call-name { color: var(--color-muted); text-decoration: line-through; }
.call.is-current { background: linear-gradient(90deg, var(--color-accent-soft), transparent 70%); }

/* The vehicle: a round marker over the dot (stopped) or between two dots (on its way). */
.vehicle-marker {
  position: absolute; left: 10px; z-index: 2;
  display: grid; place-items: center; width: 32px; height: 32px; border-radius: 50%;
  background: var(--color-vehicle); color: var(--color-on-accent);
  box-shadow: 0 0 0 3px var(--color-surface), var(--shadow-raised);
}
.vehicle-marker.at-stop { top: 8px; }
.vehicle-marker.between { top: -30px; }
.vehicle-marker .icon { width: 18px; height: 18px; }

/* ---------- Error page ---------- */

.error-page { max-width: 560px; padding-top: 16px; }
.error-page .search { margin: 20px 0; }

/* ---------- Wider screens ---------- */

.narrow-only { display: inline-flex; align-items: center; gap: 4px; white-space: nowrap; }

@media (min-width: 640px) {
  h1 { font-size: 2rem; }
  .hero h1 { font-size: 2.25rem; }
  main { padding-top: 28px; }
  .narrow-only { display: none; }
  .col-platform { display: table-cell; width: 6em; text-align: center; }
  .col-line { display: table-cell; width: 4.5em; }
  .board th, .board td { padding-left: 12px; padding-right: 12px; }
  .board th:first-child, .board td:first-child { padding-left: 16px; }
  .board th:last-child, .board td:last-child { padding-right: 16px; }
  .col-time { width: 5.5em; }
  .col-time .time-scheduled, .col-time .time-expected { font-size: 1.25rem; }
  .col-status { width: 10em; }
  .col-status .status { font-size: 0.9375rem; }
  .line-badge { font-size: 0.875rem; }
  .call { padding-right: 20px; }
  .stop-list { margin-left: -16px; margin-right: -16px; }
}

@media (max-width: 380px) {
  .wrap { padding-left: 12px; padding-right: 12px; }
  .board td { padding-left: 6px; padding-right: 6px; }
  .board th:first-child, .board td:first-child { padding-left: 10px; }
  .board th:last-child, .board td:last-child { padding-right: 10px; }
  .col-status { width: 6.2em; }
  .search-row .button { padding: 0 12px; }
}

@media (max-width: 420px) {
  .brand { font-size: 1.0625rem; gap: 8px; }
  .site-nav ul { gap: 0; }
  .site-nav a { padding: 0 8px; font-size: 0.875rem; }
}

/* "Pemberitahuan" is long: on the narrowest phones the mark alone names the site. */
@media (max-width: 400px) {
  html[lang="id"] .brand-name {
    position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap;
  }
}

@media (prefers-reduced-motion: reduce) {
  *, *::before, *::after { animation: none !important; transition: none !important; }
}

@media (forced-colors: active) {
  .line-badge, .platform, .severity, .badge { border: 1px solid CanvasText; }
  .call-dot, .vehicle-marker { forced-color-adjust: none; }
}

@media print {
  .site-header nav, .site-footer .prefs, .live-bar, .filter-box, .search { display: none; }
}
"""#
}
