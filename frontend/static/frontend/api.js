// The JSON API from the pages: the session's CSRF token, JSON in and out, errors as Error(detail).
import { markQueued } from "./tabs.js";

let token = null;

async function csrfToken(refresh = false) {
  if (token && !refresh) return token;
  const response = await fetch("/api/auth/csrf", { credentials: "same-origin" });
  token = (await response.json()).csrfToken;
  return token;
}

export async function api(method, url, body) {
  const send = async (refresh) =>
    fetch(url, {
      method,
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "X-CSRFToken": method === "GET" ? "" : await csrfToken(refresh),
      },
      body: body === undefined || method === "GET" ? undefined : JSON.stringify(body),
    });
  let response = await send(false);
  if (response.status === 403 && method !== "GET") response = await send(true); // a rotated token
  if (response.status === 204) return null;
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.detail || response.statusText);
    error.code = data.code;
    throw error;
  }
  // whichever page joins the queue (home, a table's "find another"), this tab is the one that
  // goes to the table when it starts (tabs.js)
  if (method === "POST" && url === "/api/queue") markQueued();
  return data;
}
