// The server's time as the page knows it, so a running clock ticks down in step with the
// server that will decide its timeout, whatever the browser's own clock says.
//
// Every answer bounds the difference (server time - browser time): the server's time was taken
// between the moment the request left and the moment the answer came back. A `now_ms` field is
// that time to the millisecond; an HTTP Date header only to the second, and the server may
// refresh it only once a second, so it says the time was in [Date, Date + DATE_SLACK_MS). The
// bounds of every answer are intersected. The browser's clock is trusted (difference 0) while
// the answers allow it: two clocks kept in step agree to the millisecond. One the answers
// prove wrong is corrected by the middle of the bounds, which narrow with every answer.

const DATE_SLACK_MS = 2500;    // one second of resolution, up to a second of staleness, and latency

let low = -Infinity;           // bounds on (server time - browser time), in ms
let high = Infinity;

export const browserNow = () => Date.now();

// Narrow the bounds by one answer; bounds that no longer meet mean a clock was set: start over.
function bound(from, to) {
  if (from > high || to < low) {
    low = from;
    high = to;
  } else {
    low = Math.max(low, from);
    high = Math.min(high, to);
  }
}

// One answer to a request sent at `sentAt` and received at `receivedAt` (browser times): its
// `now_ms`, if it had one, else its Date header.
export function noteAnswer({ nowMs, date }, sentAt, receivedAt) {
  if (typeof nowMs === "number" && Number.isFinite(nowMs)) {
    bound(nowMs - receivedAt, nowMs - sentAt);
    return;
  }
  const dated = date ? Date.parse(date) : NaN;
  if (Number.isFinite(dated)) bound(dated - receivedAt, dated + DATE_SLACK_MS - sentAt);
}

// The correction to add to the browser's clock: 0 if the answers allow it, else the middle
// of what they allow.
export function skewMs() {
  return low <= 0 && high >= 0 ? 0 : (low + high) / 2;
}

export function serverNow() {
  return browserNow() + skewMs();
}
