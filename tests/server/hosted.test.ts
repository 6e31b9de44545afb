import { describe, expect, it } from "vitest";
import { throughProxy, uncancellableBody } from "../../server/http/hosted";

// The shims the build's `fetch` puts under react-router-serve (decision 020); e2e/serve.spec.ts runs them in the server.
describe("throughProxy", () => {
  it("takes the scheme, host and client from the first X-Forwarded-* values", async () => {
    const incoming = new Request("http://127.0.0.1:3000/login?x=1", {
      method: "POST",
      headers: { "X-Forwarded-Proto": "https, http", "X-Forwarded-Host": "canteen.example:8443", "X-Forwarded-For": "203.0.113.9, 10.0.0.1", "Content-Type": "application/json" },
      body: '{"a":1}',
    });
    const { request, clientAddress } = throughProxy(incoming, "127.0.0.1");
    expect(request.url).toBe("https://canteen.example:8443/login?x=1");
    expect(clientAddress).toBe("203.0.113.9");
    expect(request.method).toBe("POST");
    expect(await request.text()).toBe('{"a":1}');
  });

  it("keeps the socket's view when the forwarded values are not a scheme, host or address", () => {
    const incoming = new Request("http://127.0.0.1:3000/", {
      headers: { "X-Forwarded-Proto": "gopher", "X-Forwarded-Host": "a b/evil", "X-Forwarded-For": "not-an-ip" },
    });
    const { request, clientAddress } = throughProxy(incoming, "10.0.0.5");
    expect(request.url).toBe("http://127.0.0.1:3000/");
    expect(clientAddress).toBe("10.0.0.5");
    expect(throughProxy(new Request("http://h/", { headers: { "X-Forwarded-For": "[::1]" } }), "x").clientAddress).toBe("::1");
  });
});

describe("uncancellableBody", () => {
  it("passes the body on, and a reader that stops early leaves the source read to its end, never cancelled", async () => {
    let cancelled = false;
    let pulled = 0;
    const source = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 5) controller.close();
        else controller.enqueue(new Uint8Array([pulled]));
      },
      cancel() {
        cancelled = true;
      },
    });
    const { request, drained } = uncancellableBody(new Request("http://h/", { method: "POST", body: source, duplex: "half" } as RequestInit));
    const reader = (request.body as ReadableStream<Uint8Array>).getReader();
    expect((await reader.read()).value).toEqual(new Uint8Array([1]));
    await reader.cancel();
    // `drained` settles once the rest has been read (a 413's connection closes only then).
    await drained();
    expect(cancelled).toBe(false);
    expect(pulled).toBe(6);
  });

  it("leaves a request without a body as it is", async () => {
    const request = new Request("http://h/x");
    const guarded = uncancellableBody(request);
    expect(guarded.request).toBe(request);
    await guarded.drained();
  });
});
