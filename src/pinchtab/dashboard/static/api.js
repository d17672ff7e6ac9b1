// Calls to the server's API from the dashboard page. Same origin: the login cookie (HttpOnly,
// set by POST /api/auth/login) authenticates when the server has a token.
export class AuthRequired extends Error {}

export async function api(path, { method = "GET", body, headers = {} } = {}) {
  const init = { method, headers: { ...headers }, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  if (res.status === 401) throw new AuthRequired("the server needs its token");
  const type = res.headers.get("content-type") || "";
  const data = type.startsWith("application/json") ? await res.json() : await res.text();
  if (!res.ok) throw new Error((data && data.error) || `${method} ${path}: HTTP ${res.status}`);
  return data;
}

export async function login(token) {
  const res = await fetch("/api/auth/login", {
    method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token }),
  });
  if (!res.ok) throw new Error("wrong token");
}

export async function logout() {
  await fetch("/api/auth/logout", { method: "POST", credentials: "same-origin" });
}

export function screenshotUrl(tabId, version, scale = 0.3) {
  const q = new URLSearchParams({ raw: "true", quality: "50", scale: String(scale), v: String(version || 0) });
  return `/tabs/${encodeURIComponent(tabId)}/screenshot?${q}`;
}
