import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { N: n, r, p, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString("base64")}$${key.toString("base64")}`;
}

// A hash of a random password, verified against when a user name is unknown so the timing matches.
const decoyHash = hashPassword(randomBytes(16).toString("hex"));

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = (stored ?? (await decoyHash)).split("$");
  if (scheme !== "scrypt" || !salt || !key) return false;
  const expected = Buffer.from(key, "base64");
  const actual = await derive(password, Buffer.from(salt, "base64"), Number(n), Number(r), Number(p));
  return stored !== null && actual.length === expected.length && timingSafeEqual(actual, expected);
}

// The most used passwords of public leak lists (and their canteen-flavoured cousins).
const COMMON_PASSWORDS = new Set([
  "12345678", "123456789", "1234567890", "password", "password1", "password123", "qwertyui", "qwerty123",
  "11111111", "00000000", "88888888", "66666666", "12341234", "11223344", "abcd1234", "abc12345", "abcdefgh",
  "admin123", "admin1234", "admin888", "administrator", "iloveyou", "1qaz2wsx", "1q2w3e4r", "qazwsxedc",
  "asdfghjk", "zxcvbnm1", "a1234567", "aa123456", "a12345678", "woaini1314", "5201314520", "letmein1",
  "welcome1", "passw0rd", "p@ssw0rd", "p@ssword", "changeme", "default1", "sunshine", "football",
  "baseball", "princess", "12qwaszx", "987654321", "87654321", "123123123", "147258369", "159357456",
  "canteen123", "canteen1", "123456abc", "abc123456", "qwe123456", "test1234", "user1234", "root1234",
]);

export function passwordProblem(password: string, userName: string): string | null {
  if (password.length < 8) return "新密码至少 8 个字符";
  if (password.length > 64) return "新密码不能超过 64 个字符";
  if (password.toLowerCase() === userName.toLowerCase()) return "新密码不能与用户名相同";
  if (COMMON_PASSWORDS.has(password.toLowerCase())) return "新密码过于常见，请换一个";
  return null;
}

/** 1 weak, 2 medium, 3 strong: by the kinds of characters used and the length. */
export function securityLevel(password: string): number {
  const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter((re) => re.test(password)).length;
  if (kinds >= 3 && password.length >= 10) return 3;
  if (kinds >= 2) return 2;
  return 1;
}

/** A readable one-time password for the first admin. */
export function randomPassword(length = 16): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789";
  const bytes = randomBytes(length);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}
