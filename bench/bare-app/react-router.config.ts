import type { Config } from "@react-router/dev/config";

// The yardstick of issue 39: a bare React Router app, as its template makes one, with the product's lock file.
export default {
  ssr: true,
} satisfies Config;
