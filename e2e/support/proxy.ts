import * as http from "node:http";

/**
 * A round-robin reverse proxy on loopback, as an operator would put before several instances (a test harness, not
 * part of the product): each request goes to the next upstream, with X-Forwarded-For/-Proto/-Host, and the answer
 * says which upstream gave it (`X-Upstream`).
 */
export async function startProxy(port: number, upstreams: number[]): Promise<{ close(): Promise<void> }> {
  let next = 0;
  const server = http.createServer((req, res) => {
    const upstream = upstreams[next++ % upstreams.length];
    const forwardedFor = [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", ");
    const outgoing = http.request(
      {
        host: "127.0.0.1",
        port: upstream,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, "x-forwarded-for": forwardedFor, "x-forwarded-proto": "http", "x-forwarded-host": req.headers.host ?? "" },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, "x-upstream": String(upstream) });
        answer.pipe(res);
      },
    );
    outgoing.on("error", () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(outgoing);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
