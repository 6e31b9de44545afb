import { expect, type APIRequestContext } from "@playwright/test";

const enc = (s: string) => `ENC:${Buffer.from(s, "utf8").toString("base64")}`;

/**
 * A GET sent on a kept-alive connection that the server closes at its idle timeout in the same instant fails with
 * ECONNRESET before the server read it. A browser re-sends an idempotent request then; Playwright's request context
 * does not, so this does it once (seen on a loaded CI machine).
 */
async function getOnce(request: APIRequestContext, path: string, headers: Record<string, string>) {
  try {
    return await request.get(path, { headers });
  } catch (error) {
    if (!String(error).includes("ECONNRESET")) throw error;
    return request.get(path, { headers });
  }
}

/** Signs in through the API and returns a caller that sends the Bearer token. */
export async function apiAs(request: APIRequestContext, userName: string, password: string) {
  const login = await request.post("/login", { data: { username: enc(userName), password: enc(password) } });
  const token = (await login.json()).data.token as string;
  const headers = { Authorization: `Bearer ${token}` };
  return {
    token,
    get: async (path: string) => (await getOnce(request, path, headers)).json(),
    post: async (path: string, data: unknown) => (await request.post(path, { headers, data })).json(),
    /** A POST that must succeed: fails the test with the envelope otherwise, and gives its data. */
    ok: async <T = { id: number }>(path: string, data: unknown): Promise<T> => {
      const result = await (await request.post(path, { headers, data })).json();
      expect(result.status, `${path} ${JSON.stringify(result)}`).toBe(200);
      return result.data as T;
    },
  };
}
