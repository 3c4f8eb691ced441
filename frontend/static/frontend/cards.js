// The cards of the five games, drawn by the project as inline SVG (issue 12).
//
//   cardFace(code, game, { selected, playable, interactive, label, faceDown, small }) -> Element
//   cardBack(game, { small }) -> Element
//   cardName(code, game) -> the words a screen reader says for a card ("7 de corazones")
//   setCardWords(t) -> gives this module the page's translated words (table.js does it once)
//
// Card codes are design.md's: French "7H" "TD" "RJ" "BJ", Spanish "1O" "12E", Pika "G7" "Y+2"
// "W" "W+4", Skyjo "-2" … "12". Colour never carries a card's meaning alone (colour-blind
// players): French suits are their own shapes, Spanish suits have their shape and initial,
// Pika colours each have a shape (▲ red, ● yellow, ■ green, ◆ blue), Skyjo cards show the number.
//
// cardFace returns a <button> when the card can be used (playable, selected or interactive:
// true), else a <div role="img">; both carry data-card=<code> and an aria-label. The SVG is
// a picture with an empty alt: the label is the card's name. Sizes live in table.css (.pcard).

const SVG = "http://www.w3.org/2000/svg";
const W = 60;
const H = 84;

let words = (key, params = {}) => {
  let text = FALLBACK[key] ?? key;
  for (const [name, value] of Object.entries(params)) text = text.split(`%(${name})s`).join(String(value));
  return text;
};
// Only until the page hands its own words over (setCardWords); the page's are translated.
const FALLBACK = { card_french: "%(rank)s %(suit)s", card_spanish: "%(n)s %(suit)s", card_pika: "%(value)s %(colour)s", hidden: "?" };

export function setCardWords(t) {
  words = t;
}

// -- names --------------------------------------------------------------------------------------
const RANK_NAMES = { T: "10", J: "J", Q: "Q", K: "K", A: "A" };

export function cardName(code, game) {
  if (code === null || code === undefined || code === "hidden") return words("hidden");
  if (game === "skyjo") return String(code);
  if (game === "puteo") return words("card_spanish", { n: code.slice(0, -1), suit: words(`suit_${code.slice(-1)}`) });
  if (game === "pika") {
    if (code === "W" || code === "W+4") return words(`pika_${code}`);
    const value = code.slice(1);
    return words("card_pika", { value: value === "S" || value === "R" ? words(`pika_${value}`) : value, colour: words(`colour_${code[0]}`) });
  }
  if (code === "RJ" || code === "BJ") return words(`joker_${code}`);
  const rank = code.slice(0, -1);
  return words("card_french", { rank: RANK_NAMES[rank] ?? rank, suit: words(`fsuit_${code.slice(-1)}`) });
}

// -- SVG helpers --------------------------------------------------------------------------------
function svgNode(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) if (child) node.append(child);
  return node;
}

function text(x, y, content, attrs = {}) {
  const node = svgNode("text", { x, y, "text-anchor": "middle", "font-family": "system-ui, sans-serif", "font-weight": "700", ...attrs });
  node.textContent = content;
  return node;
}

// Suit and colour shapes drawn in a 20 × 20 box, placed with a transform.
const SHAPES = {
  heart: () => svgNode("path", { d: "M10 18.5C3.5 13 0 9.5 0 5.6 0 2.5 2.4 0 5.3 0 7.4 0 9 1.2 10 3c1-1.8 2.6-3 4.7-3C17.6 0 20 2.5 20 5.6c0 3.9-3.5 7.4-10 12.9z" }),
  diamond: () => svgNode("path", { d: "M10 0l8 10-8 10-8-10z" }),
  spade: () =>
    svgNode("path", { d: "M10 0c3 4.2 10 7.8 10 12.4 0 3-2.2 4.6-4.5 4.6-1.8 0-3.2-.8-4.3-2.2.3 2.2 1.3 4 2.8 5.2H6c1.5-1.2 2.5-3 2.8-5.2C7.7 16.2 6.3 17 4.5 17 2.2 17 0 15.4 0 12.4 0 7.8 7 4.2 10 0z" }),
  club: () =>
    svgNode(
      "g",
      {},
      svgNode("circle", { cx: 10, cy: 5, r: 4.6 }),
      svgNode("circle", { cx: 4.8, cy: 11.8, r: 4.6 }),
      svgNode("circle", { cx: 15.2, cy: 11.8, r: 4.6 }),
      svgNode("path", { d: "M8.8 10h2.4l1.8 10H7z" }),
    ),
  triangle: () => svgNode("path", { d: "M10 1l9.5 17H.5z" }),
  circle: () => svgNode("circle", { cx: 10, cy: 10, r: 9 }),
  square: () => svgNode("rect", { x: 1.5, y: 1.5, width: 17, height: 17 }),
  rhombus: () => svgNode("path", { d: "M10 0l10 10-10 10L0 10z" }),
  // Spanish suits: a coin, a cup, a sword, a club
  oros: () => svgNode("g", {}, svgNode("circle", { cx: 10, cy: 10, r: 9.5 }), svgNode("circle", { cx: 10, cy: 10, r: 5, fill: "#fff3c4" }), svgNode("circle", { cx: 10, cy: 10, r: 2.2 })),
  copas: () => svgNode("path", { d: "M2 1h16c0 6-3 9.5-6.5 10.3V16h4v3h-11v-3h4v-4.7C5 10.5 2 7 2 1z" }),
  espadas: () => svgNode("path", { d: "M9 0h2l.6 13H8.4zM4 13h12v2H11v3.2l1.5 1.8h-5L9 18.2V15H4z" }),
  bastos: () => svgNode("path", { d: "M7.5 0C11.5 0 13 2.5 12.6 5l-.6 3.5 1.6.5-1 2.6-1.2-.4L10 20H6.4L7.2 10.6 5.6 10l.7-2.5 1.3.4L6.5 4C5.5 2 5.5 0 7.5 0z" }),
};

function shape(name, x, y, size, attrs = {}) {
  return svgNode("g", { transform: `translate(${x} ${y}) scale(${size / 20})`, ...attrs }, SHAPES[name]());
}

function frame(fill, stroke = "#5f5f5f") {
  return svgNode("rect", { x: 0.75, y: 0.75, width: W - 1.5, height: H - 1.5, rx: 6, fill, stroke, "stroke-width": 1.5 });
}

function svgRoot(...children) {
  return svgNode("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H }, ...children);
}

// A card's picture is an <img> of its SVG (alt="": the card's element carries the name). As an
// image its figures are not text of the button, so the spoken name is the whole name (WCAG 2.5.3
// "label in name"), the browser never drags it natively (the Pika hand is dragged by pointer
// events), and each picture is drawn and serialised once per page.
const pictures = new Map();

function picture(key, draw) {
  let src = pictures.get(key);
  if (!src) {
    src = `data:image/svg+xml,${encodeURIComponent(new XMLSerializer().serializeToString(draw()))}`;
    pictures.set(key, src);
  }
  const img = document.createElement("img");
  img.className = "pcard-art";
  img.alt = "";
  img.draggable = false;
  img.src = src;
  return img;
}

// -- the decks ------------------------------------------------------------------------------------
const FRENCH = { S: ["spade", "#1a1a1a"], H: ["heart", "#c0221b"], D: ["diamond", "#c0221b"], C: ["club", "#1a1a1a"] };

function frenchArt(code) {
  if (code === "RJ" || code === "BJ") {
    // The big (red) joker is a filled star, the small (black) one an outline: shape tells them apart.
    const colour = code === "RJ" ? "#c0221b" : "#1a1a1a";
    const star = svgNode("path", {
      d: "M30 22l5.3 10.8 11.9 1.7-8.6 8.4 2 11.8L30 49.1l-10.6 5.6 2-11.8-8.6-8.4 11.9-1.7z",
      fill: code === "RJ" ? colour : "#ffffff",
      stroke: colour,
      "stroke-width": 2.5,
    });
    return svgRoot(frame("#ffffff"), text(30, 18, "JOKER", { "font-size": 10, fill: colour }), star, text(30, 74, code === "RJ" ? "★" : "☆", { "font-size": 12, fill: colour }));
  }
  const rank = RANK_NAMES[code.slice(0, -1)] ?? code.slice(0, -1);
  const [name, colour] = FRENCH[code.slice(-1)];
  return svgRoot(
    frame("#ffffff"),
    text(11, 20, rank, { "font-size": rank.length > 1 ? 14 : 17, fill: colour }),
    shape(name, 4, 24, 13, { fill: colour }),
    text(49, 77, rank, { "font-size": rank.length > 1 ? 14 : 17, fill: colour, transform: "rotate(180 49 72)" }),
    shape(name, 21, 36, 26, { fill: colour }),
  );
}

const SPANISH = { O: ["oros", "#a86b00"], C: ["copas", "#b3261e"], E: ["espadas", "#1d4f91"], B: ["bastos", "#2e6b1e"] };

function spanishArt(code) {
  const number = code.slice(0, -1);
  const suit = code.slice(-1);
  const [name, colour] = SPANISH[suit];
  return svgRoot(
    frame("#fffdf5", colour),
    text(12, 20, number, { "font-size": 17, fill: colour }),
    // the suit's initial (O, C, E, B) beside its shape: the same letters in Spanish and English
    text(49, 20, suit, { "font-size": 13, fill: colour }),
    shape(name, 16, 30, 28, { fill: colour }),
    text(30, 77, number, { "font-size": 12, fill: colour }),
  );
}

const PIKA = { R: ["triangle", "#c62828", "#ffffff"], Y: ["circle", "#f2c200", "#1a1a1a"], G: ["square", "#2e7d32", "#ffffff"], B: ["rhombus", "#1565c0", "#ffffff"] };

function pikaArt(code) {
  if (code === "W" || code === "W+4") {
    const quarters = ["R", "Y", "G", "B"].map((c, i) =>
      svgNode("path", { d: ["M30 42V20a22 22 0 0 1 22 22z", "M30 42h22a22 22 0 0 1-22 22z", "M30 42v22A22 22 0 0 1 8 42z", "M30 42H8a22 22 0 0 1 22-22z"][i], fill: PIKA[c][1] }),
    );
    return svgRoot(
      frame("#1a1a1a", "#1a1a1a"),
      ...quarters,
      ...["R", "Y", "G", "B"].map((c, i) => shape(PIKA[c][0], [33, 33, 19, 19][i], [26, 45, 45, 26][i], 8, { fill: "#ffffff", stroke: "#1a1a1a", "stroke-width": 2 })),
      text(30, 80, code === "W" ? "W" : "+4", { "font-size": 13, fill: "#ffffff" }),
      text(10, 15, code === "W" ? "W" : "+4", { "font-size": 11, fill: "#ffffff" }),
    );
  }
  const [name, fill, ink] = PIKA[code[0]];
  const value = code.slice(1);
  const glyph = value === "S" ? "⊘" : value === "R" ? "⇄" : value;
  return svgRoot(
    frame(fill, "#1a1a1a"),
    svgNode("ellipse", { cx: 30, cy: 44, rx: 21, ry: 27, fill: "#ffffff", transform: "rotate(20 30 44)" }),
    // yellow on white is too pale to read: the yellow card's big figure is a dark gold
    text(30, 55, glyph, { "font-size": glyph.length > 1 ? 24 : 30, fill: fill === "#f2c200" ? "#6b5000" : fill }),
    text(12, 17, glyph, { "font-size": 12, fill: ink }),
    shape(name, 41, 4, 14, { fill: ink, stroke: fill === "#f2c200" ? "none" : "#1a1a1a", "stroke-width": 1.5 }),
    shape(name, 5, 66, 14, { fill: ink }),
  );
}

function skyjoBand(value) {
  if (value < 0) return ["#283593", "#ffffff"];
  if (value === 0) return ["#4fc3f7", "#1a1a1a"];
  if (value <= 4) return ["#66bb6a", "#1a1a1a"];
  if (value <= 8) return ["#fdd835", "#1a1a1a"];
  return ["#e53935", "#ffffff"];
}

function skyjoArt(code) {
  const value = Number(code);
  const [fill, ink] = skyjoBand(value);
  return svgRoot(
    frame("#ffffff"),
    svgNode("rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, fill }),
    svgNode("circle", { cx: 30, cy: 42, r: 17, fill: "#ffffff", opacity: 0.9 }),
    text(30, 51, String(value), { "font-size": 24, fill: "#1a1a1a" }),
    text(14, 20, String(value), { "font-size": 11, fill: ink }),
    text(46, 73, String(value), { "font-size": 11, fill: ink }),
  );
}

const BACKS = { one_card: "#1d3f70", guandan: "#7a1f1f", puteo: "#6b4a00", pika: "#1a1a1a", skyjo: "#23507a" };

function backArt(game) {
  const colour = BACKS[game] ?? "#1d3f70";
  const lines = [];
  for (let i = -74; i < 74; i += 8) lines.push(`M${i} 0l74 74M${i + 74} 0l-74 74`);
  return svgRoot(
    frame(colour, "#ffffff"),
    // a nested <svg> clips the lattice to the inner frame without a document-wide clipPath id
    svgNode("svg", { x: 5, y: 5, width: 50, height: 74 }, svgNode("path", { d: lines.join(""), stroke: "#ffffff", "stroke-opacity": 0.25, "stroke-width": 1.5 })),
    svgNode("rect", { x: 5, y: 5, width: 50, height: 74, rx: 4, fill: "none", stroke: "#ffffff", "stroke-width": 1.5 }),
    svgNode("circle", { cx: 30, cy: 42, r: 11, fill: "#ffffff" }),
    text(30, 48, "T", { "font-size": 16, fill: colour }),
  );
}

function art(code, game) {
  if (game === "skyjo") return skyjoArt(code);
  if (game === "puteo") return spanishArt(code);
  if (game === "pika") return pikaArt(code);
  return frenchArt(code);
}

// -- the elements -----------------------------------------------------------------------------------
function shell(interactive, classes, label, code) {
  const node = document.createElement(interactive ? "button" : "div");
  if (interactive) node.type = "button";
  else node.setAttribute("role", "img");
  node.className = classes.filter(Boolean).join(" ");
  node.setAttribute("aria-label", label);
  if (code !== null && code !== undefined) node.dataset.card = code;
  return node;
}

export function cardFace(code, game, { selected = false, playable = false, interactive, label, faceDown = false, small = false } = {}) {
  const hidden = faceDown || code === "hidden" || code === null || code === undefined;
  const usable = interactive ?? (playable || selected);
  const node = shell(usable, ["pcard", `deck-${game}`, small && "small", playable && "playable", selected && "selected", hidden && "face-down"], label ?? cardName(hidden ? "hidden" : code, game), code);
  if (usable && (selected || playable)) node.setAttribute("aria-pressed", selected ? "true" : "false");
  node.append(hidden ? picture(`back:${game}`, () => backArt(game)) : picture(`${game}:${code}`, () => art(code, game)));
  return node;
}

export function cardBack(game, { small = false } = {}) {
  const node = shell(false, ["pcard", `deck-${game}`, "face-down", small && "small"], words("hidden"), null);
  node.append(picture(`back:${game}`, () => backArt(game)));
  return node;
}

// The colour swatch of a Pika colour (the wild's picker and the active colour): colour and shape.
export function colourSwatch(colour) {
  const [name, fill] = PIKA[colour];
  return svgNode("svg", { viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false", class: "swatch" }, svgNode("rect", { x: 0, y: 0, width: 24, height: 24, rx: 5, fill }), shape(name, 4, 4, 16, { fill: "#ffffff", stroke: "#1a1a1a", "stroke-width": 1.5 }));
}

// The shape of a French suit in its colour (the 7's suit picker and the active suit).
export function suitMark(suit) {
  const [name, colour] = FRENCH[suit];
  return svgNode("svg", { viewBox: "0 0 20 20", "aria-hidden": "true", focusable: "false", class: "suit-mark" }, shape(name, 0, 0, 20, { fill: colour }));
}
