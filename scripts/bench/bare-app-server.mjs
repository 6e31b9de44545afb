// Serves bench/bare-app's build as React Router's template does, without Express: node:http, node-fetch-server and
// React Router's request handler, nothing else (no session, no data, no headers of ours). PORT: where it listens.
import { createServer } from "node:http";
import { createRequestListener } from "@remix-run/node-fetch-server";
import { createRequestHandler } from "react-router";

const build = await import(new URL("../../bench/bare-app/build/server/index.js", import.meta.url).href);
const handle = createRequestHandler(build, "production");
createServer(createRequestListener((request) => handle(request))).listen(Number(process.env.PORT), "127.0.0.1", () => console.log("ready"));
