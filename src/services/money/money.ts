import { add, dinero, subtract, toDecimal, type Dinero, type DineroCurrency } from 'dinero.js';

/*
 * Money in the service's arithmetic: dinero.js amounts in a currency's minor units (integers), so
 * sums and splits are exact. Amounts enter from the catalogue or a client as decimal numbers and
 * leave as decimal strings (exact) or the numbers JSON writes them as (the same digits).
 */

export type Money = Dinero<number, string>;

/** A catalogue currency (its own `decimals`) as dinero.js names one. */
export function currencyOf(code: string, decimals: number): DineroCurrency<number, string> {
  return { code, base: 10, exponent: decimals };
}

/**
 * An amount written as a decimal number or string ("19.99", 19.99, 3200) in a currency. The digits
 * are read as text, never as a float product; more decimals than the currency has are refused
 * (the catalogue import refuses them, so only a client's input can carry them).
 */
export function moneyOf(amount: number | string, currency: DineroCurrency<number, string>): Money {
  const text = typeof amount === 'number' ? decimalText(amount) : amount.trim();
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new RangeError(`${JSON.stringify(amount)} is not a decimal amount`);
  const [, sign, whole, fraction = ''] = match;
  const digits = fraction.replace(/0+$/, '');
  if (digits.length > currency.exponent)
    throw new RangeError(`${text} has more decimals than ${currency.code} (${currency.exponent})`);
  const minor = Number(whole + digits.padEnd(currency.exponent, '0'));
  if (!Number.isSafeInteger(minor)) throw new RangeError(`${text} is too large an amount`);
  return dinero({ amount: sign ? -minor : minor, currency });
}

/**
 * An amount a client sent as a JSON number, rounded half away from zero to the currency's decimals
 * on its decimal digits (0.30000000000000004 is 0.30, 2.675 is 2.68: the digits written, not the
 * float's binary value). An order's totals are checked on these, exactly.
 */
export function roundedMoneyOf(amount: number, currency: DineroCurrency<number, string>): Money {
  const text = decimalText(amount);
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new RangeError(`${JSON.stringify(amount)} is not a decimal amount`);
  const [, sign, whole, fraction = ''] = match;
  const kept = BigInt(whole + fraction.slice(0, currency.exponent).padEnd(currency.exponent, '0'));
  const minor = fraction.length > currency.exponent && fraction[currency.exponent] >= '5' ? kept + 1n : kept;
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`${text} is too large an amount`);
  return dinero({ amount: sign && minor > 0n ? -Number(minor) : Number(minor), currency });
}

export function zero(currency: DineroCurrency<number, string>): Money {
  return dinero({ amount: 0, currency });
}

export function sum(amounts: Money[], currency: DineroCurrency<number, string>): Money {
  return amounts.reduce((total, amount) => add(total, amount), zero(currency));
}

export function minus(a: Money, b: Money): Money {
  return subtract(a, b);
}

/** The exact decimal text with all of the currency's decimals ("41.90", "3200"). */
export function decimal(amount: Money): string {
  return toDecimal(amount);
}

/** The amount as a JSON number: the shortest number that writes the same decimal digits. */
export function asNumber(amount: Money | string): number {
  return Number(typeof amount === 'string' ? amount : toDecimal(amount));
}

/** A number as plain decimal text (no exponent): what JSON or the catalogue wrote. */
function decimalText(amount: number): string {
  if (!Number.isFinite(amount)) throw new RangeError(`${amount} is not a finite amount`);
  const text = String(amount);
  if (!/e/i.test(text)) return text;
  // 1e-7 and 1e21 style: toFixed with enough digits is exact for what fits in a double's 17 digits.
  return amount.toFixed(20).replace(/\.?0+$/, '');
}
