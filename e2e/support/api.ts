import type { APIRequestContext } from "@playwright/test";

const enc = (s: string) => `ENC:${Buffer.from(s, "utf8").toString("base64")}`;

/** Signs in through the API and returns a caller that sends the Bearer token. */
export async function apiAs(request: APIRequestContext, userName: string, password: string) {
  const login = await request.post("/login", { data: { username: enc(userName), password: enc(password) } });
  const token = (await login.json()).data.token as string;
  const headers = { Authorization: `Bearer ${token}` };
  return {
    token,
    get: async (path: string) => (await request.get(path, { headers })).json(),
    post: async (path: string, data: unknown) => (await request.post(path, { headers, data })).json(),
  };
}
