/**
 * The same response, with `done` called once when its body has been sent, cancelled or failed (at once when it has
 * none). A handler's promise settles when its headers are ready; a page or an export keeps working while its body
 * streams, and what counts that work (the shutdown's wait, the render gate) must count until the body ends.
 */
export function onBodySettled(response: Response, done: () => void): Response {
  const body = response.body;
  if (!body) {
    done();
    return response;
  }
  const reader = body.getReader();
  let settled = false;
  const finish = () => {
    if (!settled) done();
    settled = true;
  };
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          finish();
          controller.close();
        } else controller.enqueue(chunk.value);
      } catch (error) {
        finish();
        controller.error(error);
      }
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
  return new Response(stream, { status: response.status, statusText: response.statusText, headers: response.headers });
}
