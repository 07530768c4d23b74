// DOM helpers. Everything is built with createElement and textContent, never from HTML
// strings, so no value from a battle can ever be parsed as markup.

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = String(value);
    else if (name === "data") Object.assign(node.dataset, value);
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

// "turn_number" -> "turn number"
// A seat's player: an id, or {bot: policy} for a seat the service plays (a house seat).
export function playerName(entry) {
  if (entry === undefined || entry === null) return "";
  return typeof entry === "object" ? `house ${entry.bot ?? "bot"}` : String(entry);
}

export function humanize(key) {
  return String(key).replace(/_/g, " ");
}

// "fire_bomb" -> "Fire Bomb": ids read as names where the view gives no name.
export function titleCase(id) {
  return String(id).replace(/[_-]+/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}

export function bar(label, value, max) {
  const share = max > 0 ? Math.max(0, Math.min(1, value / max)) : 0;
  const fill = el("span", { class: "bar-fill" });
  fill.style.width = `${(share * 100).toFixed(1)}%`;
  const level = share <= 0.25 ? "low" : share <= 0.5 ? "mid" : "high";
  return el("div", { class: `bar bar-${label} level-${level}`, title: `${label.toUpperCase()} ${value} / ${max}` },
    el("span", { class: "bar-label", text: label.toUpperCase() }),
    el("span", { class: "bar-track" }, fill),
    el("span", { class: "bar-value", text: `${value}/${max}` }));
}

export function chip(text, { kind = "", title = "" } = {}) {
  return el("span", { class: `chip ${kind}`.trim(), title: title || null, text });
}

// A face-down stack: only how many cards there are, never which.
export function faceDown(count) {
  const known = Number.isInteger(count);
  return el("span", { class: "card back", title: known ? `${count} hidden` : "hidden" },
    el("span", { class: "back-mark", "aria-hidden": "true", text: "▦" }),
    known ? ` ×${count}` : " hidden");
}

export function card(value) {
  const name = value && typeof value === "object" ? value.name ?? value.id ?? JSON.stringify(value) : value;
  return el("span", { class: "card face", text: titleCase(name) });
}
