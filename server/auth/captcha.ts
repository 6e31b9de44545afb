import { createHash, randomInt } from "node:crypto";
import svgCaptcha from "svg-captcha";
import type { Db } from "../db";

// The package's typings miss its callable default export: render a given text.
const renderCaptcha = svgCaptcha as unknown as (text: string, options: Record<string, unknown>) => string;

export const CAPTCHA_TTL_MS = 5 * 60_000;
const ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

export function randomCaptchaText(length = 4): string {
  return Array.from({ length }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
}

function hashCode(checkKey: string, code: string) {
  return createHash("sha256").update(`${checkKey}:${code.trim().toUpperCase()}`).digest("hex");
}

/** Stores the code for the key (replacing an earlier one) and returns the picture as SVG paths. */
export async function issueCaptcha(db: Db, checkKey: string, text: string, now: number): Promise<string> {
  await db.deleteFrom("captcha").where("expires_at", "<", now).execute();
  const row = { check_key: checkKey, code_hash: hashCode(checkKey, text), expires_at: now + CAPTCHA_TTL_MS };
  await db
    .insertInto("captcha")
    .values(row)
    .onConflict((oc) => oc.column("check_key").doUpdateSet({ code_hash: row.code_hash, expires_at: row.expires_at }))
    .execute();
  return renderCaptcha(text, { width: 120, height: 40, fontSize: 44, noise: 2, color: true, background: "#f0f4f8" });
}

/** A code is good for one try: the row is removed whatever the answer. */
export async function consumeCaptcha(db: Db, checkKey: string, code: string, now: number): Promise<boolean> {
  const row = await db
    .deleteFrom("captcha")
    .where("check_key", "=", checkKey)
    .returning(["code_hash", "expires_at"])
    .executeTakeFirst();
  return !!row && row.expires_at >= now && row.code_hash === hashCode(checkKey, code);
}
