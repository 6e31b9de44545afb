import { afterEach, beforeEach, vi } from "vitest";

// An unexpected console.error is a failure: the server logs only what went wrong.
let errorSpy: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  errorSpy = vi.spyOn(console, "error");
});
afterEach(() => {
  const calls = errorSpy.mock.calls;
  errorSpy.mockRestore();
  if (calls.length) throw new Error(`console.error was called: ${calls.map((c: unknown[]) => c.map(String).join(" ")).join("\n")}`);
});
