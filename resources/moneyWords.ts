/**
 * An amount in fen written in Chinese capitals (人民币大写), as a printed document states its total (issue 35): the
 * rules of 《正确填写票据和结算凭证的基本规定》 — 整 after 元 when there are no 角 and 分; one 零 for a run of zeros
 * inside the figure; 零 after 元 when 角 is zero and 分 is not (壹拾万元零壹分), and when the 元 digit is zero and
 * 角 is not (壹仟陆佰捌拾元零叁角贰分, the rules' own example); 拾 always with its digit (壹拾); 万 and 亿 for groups
 * of four digits. Below 1 元 the figure starts at its first digit (伍角, 伍分). A loss (a stocktake's) is 负….
 */

const DIGITS = "零壹贰叁肆伍陆柒捌玖";
const PLACES = ["", "拾", "佰", "仟"];
/** Each group of four digits, from the lowest: 元's, 万's, 亿's and 万亿's. */
const GROUPS = ["", "万", "亿", "万亿"];

/** The largest whole yuan written: 9,999,999,999,999,999 元 is past what a fen count in a JavaScript number holds. */
const MAX_FEN = Number.MAX_SAFE_INTEGER;

/** Four digits (0 < group < 10000) as capitals; `leadingZero` when a higher group was written and this one starts below 仟. */
function groupWords(group: number, leadingZero: boolean): string {
  let out = "";
  let zero = leadingZero;
  for (let place = 3; place >= 0; place--) {
    const digit = Math.floor(group / 10 ** place) % 10;
    if (digit === 0) {
      // A zero is written once, and only when a digit follows it in this group.
      if (out || leadingZero) zero = true;
      continue;
    }
    if (zero) out += "零";
    zero = false;
    out += DIGITS[digit] + PLACES[place];
  }
  return out;
}

/** Whole yuan (> 0) as capitals, without 元. */
function yuanWords(yuan: number): string {
  const groups: number[] = [];
  for (let rest = yuan; rest > 0; rest = Math.floor(rest / 10000)) groups.push(rest % 10000);
  let out = "";
  // A zero between two written groups (壹万零壹, 壹亿零壹万): a lower group below 仟, or whole groups of zeros skipped.
  let gap = false;
  for (let i = groups.length - 1; i >= 0; i--) {
    const group = groups[i] as number;
    if (group === 0) {
      if (out) gap = true;
      continue;
    }
    out += groupWords(group, Boolean(out) && (gap || group < 1000)) + GROUPS[i];
    gap = false;
  }
  return out;
}

/** `12345` fen → 壹佰贰拾叁元肆角伍分; 0 → 零元整. Throws for a value that is not a whole number of fen. */
export function fenToChineseCapitals(fen: number): string {
  if (!Number.isSafeInteger(fen) || Math.abs(fen) > MAX_FEN) throw new RangeError(`not an amount in fen: ${fen}`);
  if (fen === 0) return "零元整";
  const sign = fen < 0 ? "负" : "";
  const abs = Math.abs(fen);
  const yuan = Math.floor(abs / 100);
  const jiao = Math.floor(abs / 10) % 10;
  const cents = abs % 10;
  let out = yuan > 0 ? `${yuanWords(yuan)}元` : "";
  if (jiao === 0 && cents === 0) return `${sign}${out}整`;
  if (yuan > 0 && (jiao === 0 || yuan % 10 === 0)) out += "零";
  if (jiao > 0) out += `${DIGITS[jiao]}角`;
  if (cents > 0) out += `${DIGITS[cents]}分`;
  return sign + out;
}
