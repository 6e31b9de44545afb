import { describe, expect, it } from "vitest";
import { fenToChineseCapitals } from "../../resources/moneyWords";

/**
 * The Chinese capitals of an amount (issue 35's printing): a table of the rules' own examples and the cases where
 * zeros, 万 and 亿 meet, then every amount of a sample from 0.01 to 99,999,999.99 read back to its fen by a reader
 * written here from the rules, so a capital that says another amount, or two 零 in a row, fails.
 */

const yuan = (text: string) => Math.round(Number(text.replaceAll(",", "")) * 100);

const TABLE: Array<[string, string]> = [
  ["0.00", "零元整"],
  ["0.01", "壹分"],
  ["0.05", "伍分"],
  ["0.10", "壹角"],
  ["0.50", "伍角"],
  ["0.99", "玖角玖分"],
  ["1.00", "壹元整"],
  ["1.01", "壹元零壹分"],
  ["1.10", "壹元壹角"],
  ["10.00", "壹拾元整"],
  ["10.20", "壹拾元零贰角"],
  ["11.00", "壹拾壹元整"],
  ["100.00", "壹佰元整"],
  ["101.00", "壹佰零壹元整"],
  ["110.00", "壹佰壹拾元整"],
  ["123.45", "壹佰贰拾叁元肆角伍分"],
  ["325.04", "叁佰贰拾伍元零肆分"],
  ["1,001.00", "壹仟零壹元整"],
  ["1,010.00", "壹仟零壹拾元整"],
  ["1,100.00", "壹仟壹佰元整"],
  ["1,409.50", "壹仟肆佰零玖元伍角"],
  ["1,680.32", "壹仟陆佰捌拾元零叁角贰分"],
  ["6,007.14", "陆仟零柒元壹角肆分"],
  ["10,000.00", "壹万元整"],
  ["10,001.00", "壹万零壹元整"],
  ["10,010.00", "壹万零壹拾元整"],
  ["10,100.00", "壹万零壹佰元整"],
  ["11,000.00", "壹万壹仟元整"],
  ["100,000.01", "壹拾万元零壹分"],
  ["107,000.53", "壹拾万柒仟元零伍角叁分"],
  ["110,000.00", "壹拾壹万元整"],
  ["1,000,010.00", "壹佰万零壹拾元整"],
  ["1,010,000.00", "壹佰零壹万元整"],
  ["10,000,000.10", "壹仟万元零壹角"],
  ["10,000,001.00", "壹仟万零壹元整"],
  ["10,101,010.10", "壹仟零壹拾万壹仟零壹拾元零壹角"],
  ["99,999,999.99", "玖仟玖佰玖拾玖万玖仟玖佰玖拾玖元玖角玖分"],
  ["100,000,000.00", "壹亿元整"],
  ["100,000,001.00", "壹亿零壹元整"],
  ["100,010,000.00", "壹亿零壹万元整"],
  ["1,000,000,000.00", "壹拾亿元整"],
];

const DIGIT = "零壹贰叁肆伍陆柒捌玖";
const PLACE: Record<string, number> = { 拾: 10, 佰: 100, 仟: 1000 };

/** Reads capitals back to fen, strictly: a 零 must stand between written digits, never twice, never last. */
function readCapitals(text: string): number {
  let rest = text;
  const sign = rest.startsWith("负") ? -1 : 1;
  if (sign < 0) rest = rest.slice(1);
  if (rest === "零元整") return 0;
  const m = /^(?:(.+)元)?(?:零?([壹贰叁肆伍陆柒捌玖])角)?(?:零?([壹贰叁肆伍陆柒捌玖])分)?(整)?$/.exec(rest);
  if (!m) throw new Error(`unreadable: ${text}`);
  const [, whole, jiao, fen, zheng] = m;
  if (zheng && (jiao || fen)) throw new Error(`整 after 角 or 分: ${text}`);
  if (!zheng && !jiao && !fen) throw new Error(`no 整: ${text}`);
  if (/零零|零[万亿元]|^零/.test(whole ?? "")) throw new Error(`misplaced 零: ${text}`);
  let total = 0;
  let section = 0;
  let digit = 0;
  for (const ch of whole ?? "") {
    if (DIGIT.includes(ch)) digit = DIGIT.indexOf(ch);
    else if (PLACE[ch]) {
      section += digit * (PLACE[ch] as number);
      digit = 0;
    } else if (ch === "万") {
      total += (section + digit) * 10_000;
      section = digit = 0;
    } else if (ch === "亿") {
      total = (total + section + digit) * 100_000_000;
      section = digit = 0;
    } else throw new Error(`unknown ${ch} in ${text}`);
  }
  total += section + digit;
  return sign * (total * 100 + (jiao ? DIGIT.indexOf(jiao) * 10 : 0) + (fen ? DIGIT.indexOf(fen) : 0));
}

describe("fenToChineseCapitals", () => {
  it.each(TABLE)("%s → %s", (figure, words) => {
    expect(fenToChineseCapitals(yuan(figure))).toBe(words);
    expect(readCapitals(words)).toBe(yuan(figure));
  });

  it("reads back to its figure for a sample from 0.01 to 99,999,999.99, every place and zero pattern among them", () => {
    // Every amount made of the digits 0, 1 and 9 in each of the ten places (3^10 = 59,049 amounts), which puts a zero
    // or not on each side of 元, 万 and every place, then a spread of plain random ones.
    const samples: number[] = [];
    for (let n = 0; n < 3 ** 10; n++) {
      let fen = 0;
      for (let place = 0, k = n; place < 10; place++, k = Math.floor(k / 3)) fen += [0, 1, 9][k % 3] * 10 ** place;
      samples.push(fen);
    }
    let seed = 35;
    for (let i = 0; i < 20_000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      samples.push(1 + (seed % 9_999_999_999));
    }
    const wrong = samples
      .filter((f) => f >= 1 && f <= 9_999_999_999)
      .map((fen) => ({ fen, words: fenToChineseCapitals(fen) }))
      .filter(({ fen, words }) => /零零|零[万亿元整]/.test(words) || readCapitals(words) !== fen);
    expect(wrong.slice(0, 10)).toEqual([]);
  });

  it("writes a loss with 负 and refuses what is not a whole number of fen", () => {
    expect(fenToChineseCapitals(-12_345)).toBe("负壹佰贰拾叁元肆角伍分");
    expect(() => fenToChineseCapitals(1.5)).toThrow(RangeError);
    expect(() => fenToChineseCapitals(Number.NaN)).toThrow(RangeError);
  });
});
