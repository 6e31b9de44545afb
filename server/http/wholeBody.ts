/**
 * The bytes a response was made from, when it was made whole before it was answered (a page rendered at once): the
 * server gzips and writes them in one piece rather than reading them back out of the body stream chunk by chunk.
 */
const wholeBodies = new WeakMap<Response, Uint8Array>();

export function keepWholeBody(response: Response, body: Uint8Array): void {
  wholeBodies.set(response, body);
}

export function wholeBodyOf(response: Response): Uint8Array | undefined {
  return wholeBodies.get(response);
}
