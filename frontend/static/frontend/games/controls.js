// Small pieces shared by the Skyjo, El Puteo and Guandan table renderers (games/*.js).
//
// table.js's conventions (its header): a control that sends a legal action, or opens the choice
// that sends one, has the class `legal`; cards that act are focusable and work with Enter and
// Space. cards.js returns a <button> for a usable card; anything else handed to `activatable`
// (a card back is a <div>) gets a button's role, focus and keys rather than being wrapped in
// one (no <div> inside a <button>).

export function activatable(node, label, onActivate) {
  if (node.tagName !== "BUTTON") {
    node.setAttribute("role", "button");
    node.tabIndex = 0;
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        onActivate(event);
      }
    });
  }
  if (label) node.setAttribute("aria-label", label);
  node.classList.add("legal");
  node.addEventListener("click", onActivate);
  return node;
}

// A card drawn for looking only, with the words a screen reader says for it.
export function inert(node, label) {
  if (label) node.setAttribute("aria-label", label);
  return node;
}

export function actionButton(el, text, onClick, { cls = "gm-primary", testid, disabled = false } = {}) {
  const button = el("button", { type: "button", class: disabled ? cls : `${cls} legal`, text, "data-testid": testid, disabled });
  if (!disabled) button.addEventListener("click", onClick);
  return button;
}

export function panel(el, cls, title, ...children) {
  const box = el("section", { class: `gm-panel ${cls}`, "aria-label": title });
  box.append(...children.filter(Boolean));
  return box;
}

// A renderer sends at most one action per drawing: a second tap before the next snapshot (or
// the error that follows a refusal; both draw again) would only be refused as stale.
export function oneShot(ctx) {
  let busy = false;
  return {
    reset() {
      busy = false;
    },
    send(action) {
      if (busy || !action) return false;
      busy = ctx.sendAction(action) !== false;
      return busy;
    },
  };
}

// PF-16: a simulated player is disclosed beside their name wherever a game draws the seat, as
// the seats strip of table.js does: a visible badge whose words are read out too. null otherwise.
export function simulatedMark(ctx, seat) {
  const info = ctx.envelope()?.seats?.find((s) => s.seat === seat);
  return info?.kind === "simulated" ? ctx.el("span", { class: "badge kind-simulated", text: ctx.t("kind_simulated") }) : null;
}

// Issue 25 §1: each seat is drawn once, by the game; its status goes with it (a simulated
// player, PF-16; a seat offline, or played by a stand-in bot, PF-63; a muted chat).
export function seatMarks(ctx, seat) {
  const info = ctx.envelope()?.seats?.find((s) => s.seat === seat);
  if (!info) return [];
  const badge = (cls, key) => ctx.el("span", { class: `badge ${cls}`, text: ctx.t(key) });
  const marks = [];
  if (info.kind === "simulated") marks.push(badge("kind-simulated", "kind_simulated"));
  if (info.connected === false) marks.push(badge("offline", "offline"));
  if (info.stand_in) marks.push(badge("stand-in", "stand_in"));
  if (info.muted) marks.push(badge("muted", "muted"));
  return marks;
}

// The dock (issue 25 §1): the viewer's hand and the controls of their decision, kept at the
// bottom of a phone's screen (table.css). `actions` first, then the hand; both may be null.
export function dock(ctx, { label, title, actions, hand, extra = [] }) {
  const box = ctx.el("section", { class: "dock", "aria-label": label });
  if (title) box.append(title);
  if (actions) {
    actions.dataset.region = "actions";
    box.append(actions);
  }
  for (const node of extra) if (node) box.append(node);
  if (hand) box.append(hand);
  return box;
}

// The newest card on the table arrives with a short animation, once, and never for a player
// who asked for less motion (table.css's `arrive`; prefers-reduced-motion turns it off too).
export function arrival(ctx) {
  let seen = null;
  return (node, key) => {
    if (key !== seen && seen !== null && !ctx.reducedMotion?.()) node.classList.add("arrive");
    seen = key;
    return node;
  };
}

// Every drawing starts from an empty game area: the legal actions of this envelope, nothing sent.
// A keyboard player keeps their place: the control that had the focus is found again in the new
// drawing by what it stands for (restoreFocus, at the end of the drawing).
export function startDrawing(ctx, shot, cls) {
  shot.reset();
  shot.focusKey = focusKey(ctx.root);
  ctx.root.replaceChildren();
  ctx.root.classList.add(cls);
  return ctx.legalActions() || [];
}

const KEYS = ["data-testid", "data-index", "data-pos", "data-k", "id"];

function focusKey(root) {
  const active = document.activeElement;
  if (!active || active === root || !root.contains(active)) return null;
  const scope = active.parentElement?.closest("[id]");
  const within = scope && scope !== root && root.contains(scope) ? `#${CSS.escape(scope.id)} ` : "";
  for (const attr of KEYS) if (active.hasAttribute(attr)) return `${within}[${attr}="${CSS.escape(active.getAttribute(attr))}"]`;
  return ".legal";
}

export function restoreFocus(ctx, shot) {
  if (!shot.focusKey) return;
  const node = ctx.root.querySelector(shot.focusKey) ?? ctx.root.querySelector(".legal");
  node?.focus({ preventScroll: true });
}
