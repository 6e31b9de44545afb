import { z } from "zod";

const FLAG_ON = ["on", "true", "yes", "1"] as const;
const FLAG_OFF = ["off", "false", "no", "0"] as const;
/** An on/off switch: operators write on/off, true/false, yes/no or 1/0 (in any case), as other tools taught them. */
const flag = z
  .preprocess((v) => (typeof v === "string" ? v.trim().toLowerCase() : v), z.enum([...FLAG_ON, ...FLAG_OFF], "须为 on 或 off"))
  .transform((v) => (FLAG_ON as readonly string[]).includes(v));

const configSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATABASE_URL: z
    .string()
    .min(1)
    .default("data/canteen.db")
    .refine((v) => !/^[a-z]+:\/\//i.test(v) || /^postgres(ql)?:\/\//i.test(v), "只支持 SQLite 文件路径或 postgres:// 地址"),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(7 * 24 * 60).default(120),
  SESSION_ABSOLUTE_HOURS: z.coerce.number().int().min(1).max(30 * 24).default(12),
  CANTEEN_CAPTCHA: flag.default(true),
  CANTEEN_ADMIN_PASSWORD: z.string().min(8, "至少 8 个字符").optional(),
  /** On a first start (empty database), also seed the demo canteen (server/db/demo.ts, decision 035). */
  CANTEEN_DEMO: flag.default(false),
  /** The demo admin's password; unset, the documented default (to be changed at the first sign-in). */
  CANTEEN_DEMO_PASSWORD: z.string().min(8, "至少 8 个字符").optional(),
  CANTEEN_API_URL: z.url().optional(),
  UPLOAD_DIR: z.string().min(1).default("data/uploads"),
  TRUST_PROXY: flag.default(false),
  LOGIN_RATE_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(10),
  /** Requests answered at once at most; one more is refused at once with 503 and Retry-After, not queued. */
  MAX_REQUESTS_IN_FLIGHT: z.coerce.number().int().min(1).max(100_000).default(512),
  /** Pages rendered at once at most; more wait their turn in order (server/http/renderGate.ts, decision 066). */
  MAX_RENDERS_AT_ONCE: z.coerce.number().int().min(1).max(1000).default(2),
  /** Milliseconds of API reads one turn of the event loop starts at most; more start in later turns, in order (server/http/readPacer.ts, decision 093). */
  API_READ_MS_PER_TURN: z.coerce.number().int().min(1).max(1000).default(20),
  /** Milliseconds of one turn of the event loop in which pages start at most; later ones start in later turns (server/http/renderGate.ts, decision 100). */
  RENDER_MS_PER_TURN: z.coerce.number().int().min(1).max(1000).default(20),
  /** China-time hour from which the next day's default orders are made, unless a tenant's zhct.defaultOrder.generateHour says otherwise. */
  /**
   * off: this instance runs none of the timed jobs (monthly subsidy grants, default orders, points expiry, no-shows, idempotency-key pruning).
   * For an instance that must only answer requests; the jobs' leases already keep several instances from running one twice.
   */
  CANTEEN_JOBS: flag.default(true),
  DEFAULT_ORDER_HOUR: z.coerce.number().int().min(0).max(23).default(20),
  IFRAME_ALLOWED_HOSTS: z
    .string()
    .default("")
    .transform((v) => v.split(",").map((h) => h.trim()).filter(Boolean)),
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

/** Reads the environment once at start; a bad value stops the server with one clear line. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const input = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const result = configSchema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ConfigError(`配置错误：${issue.path.join(".")} ${issue.message}`);
  }
  return result.data;
}

export function isPostgresUrl(url: string) {
  return /^postgres(ql)?:\/\//i.test(url);
}
