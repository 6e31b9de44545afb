import { z } from "zod";

// One Chinese voice for every schema, on the server and in the browser.
z.config(z.locales.zhCN());
z.config({
  customError: (issue) => (issue.code === "invalid_type" && issue.input === undefined ? "必填" : undefined),
});

export { z };
