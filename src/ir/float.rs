//! IEEE-754 binary32 and binary64 as the IR sees them: the two formats, exact rounding of
//! integers and literals (round to nearest, ties to even), and the exact text forms
//! (shortest round-trip decimal, C hex floats). No arithmetic here: the interpreter
//! computes with Rust's `f32`/`f64` (IEEE with round-to-nearest-even), `smt::encode` with
//! Z3's FloatingPoint theory.
//!
//! A float is held as its bit pattern (`u64`, the low 32 bits for binary32) with one NaN:
//! SMT-LIB's FloatingPoint theory has a single NaN, without sign or payload, so every NaN
//! is stored as the canonical quiet NaN ([`FloatKind::canonical`]). Equality of bit
//! patterns is then exactly SMT-LIB `=` (`===`): NaN equals itself, +0 differs from −0.

use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{One, ToPrimitive, Zero};
use std::fmt;

/// A floating-point format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FloatKind {
    /// IEEE-754 binary32 (C `float`).
    F32,
    /// IEEE-754 binary64 (C `double`).
    F64,
}

impl FloatKind {
    /// The type's name in `.fe` and C.
    pub fn name(self) -> &'static str {
        match self {
            FloatKind::F32 => "float",
            FloatKind::F64 => "double",
        }
    }
    /// Exponent bits (SMT-LIB `eb`).
    pub fn ebits(self) -> u32 {
        match self {
            FloatKind::F32 => 8,
            FloatKind::F64 => 11,
        }
    }
    /// Significand bits with the hidden bit (SMT-LIB `sb`).
    pub fn sbits(self) -> u32 {
        match self {
            FloatKind::F32 => 24,
            FloatKind::F64 => 53,
        }
    }
    /// Width of the bit pattern.
    pub fn width(self) -> u32 {
        self.ebits() + self.sbits()
    }
    fn bias(self) -> i64 {
        (1i64 << (self.ebits() - 1)) - 1
    }
    fn frac_bits(self) -> u32 {
        self.sbits() - 1
    }
    fn mask(self) -> u64 {
        if self.width() == 64 {
            u64::MAX
        } else {
            (1u64 << self.width()) - 1
        }
    }
    fn sign_bit(self) -> u64 {
        1u64 << (self.width() - 1)
    }
    fn exp_mask(self) -> u64 {
        ((1u64 << self.ebits()) - 1) << self.frac_bits()
    }
    fn frac_mask(self) -> u64 {
        (1u64 << self.frac_bits()) - 1
    }
    /// The one NaN (the quiet NaN with a positive sign and the top fraction bit only).
    pub fn nan(self) -> u64 {
        self.exp_mask() | (1u64 << (self.frac_bits() - 1))
    }
    pub fn infinity(self, negative: bool) -> u64 {
        self.exp_mask() | if negative { self.sign_bit() } else { 0 }
    }
    pub fn zero(self, negative: bool) -> u64 {
        if negative {
            self.sign_bit()
        } else {
            0
        }
    }
    pub fn is_nan(self, bits: u64) -> bool {
        bits & self.exp_mask() == self.exp_mask() && bits & self.frac_mask() != 0
    }
    pub fn is_infinite(self, bits: u64) -> bool {
        bits & !self.sign_bit() & self.mask() == self.exp_mask()
    }
    pub fn is_negative(self, bits: u64) -> bool {
        !self.is_nan(bits) && bits & self.sign_bit() != 0
    }
    /// The pattern masked to the format's width, every NaN made the one NaN.
    pub fn canonical(self, bits: u64) -> u64 {
        let bits = bits & self.mask();
        if self.is_nan(bits) {
            self.nan()
        } else {
            bits
        }
    }
    /// The value as an `f64` (exact: binary32 widens without rounding).
    pub fn to_f64(self, bits: u64) -> f64 {
        match self {
            FloatKind::F32 => f64::from(f32::from_bits(bits as u32)),
            FloatKind::F64 => f64::from_bits(bits),
        }
    }
    /// An `f64` rounded into this format (binary32: Rust's `as f32`, round to nearest
    /// even), canonical.
    pub fn from_f64(self, x: f64) -> u64 {
        match self {
            FloatKind::F32 => self.canonical(u64::from((x as f32).to_bits())),
            FloatKind::F64 => self.canonical(x.to_bits()),
        }
    }
}

/// `1/c` when the float `c` (of `kind`) is a power of two, `±2^k`, whose reciprocal
/// `±2^-k` the format holds exactly (normal or subnormal); `None` otherwise (not a power of
/// two, zero, infinite, NaN, or `2^-k` beyond the format's range).
pub fn exact_reciprocal(kind: FloatKind, bits: u64) -> Option<u64> {
    let c = kind.to_f64(bits); // exact: binary32 widens without rounding
    if !c.is_finite() || c == 0.0 {
        return None;
    }
    let b = c.to_bits();
    let frac = b & ((1u64 << 52) - 1);
    let power_of_two = if (b >> 52) & 0x7ff == 0 { frac.is_power_of_two() } else { frac == 0 };
    if !power_of_two {
        return None;
    }
    // 1/2^k is 2^-k exactly when binary64 holds it, else it overflows to infinity.
    let r = 1.0 / c;
    if !r.is_finite() || r * c != 1.0 {
        return None;
    }
    let rb = kind.from_f64(r);
    (kind.to_f64(rb) == r).then_some(rb)
}

impl fmt::Display for FloatKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `(-1)^negative · mant · 2^exp2` rounded to nearest, ties to even, into `kind`:
/// overflow gives ±infinity, underflow ±0 or a subnormal (as IEEE-754 rounding does).
pub fn round_scaled(kind: FloatKind, negative: bool, mant: &BigUint, exp2: i64) -> u64 {
    let sign = if negative { kind.sign_bit() } else { 0 };
    if mant.is_zero() {
        return sign;
    }
    let p = i64::from(kind.sbits());
    let emin = 1 - kind.bias();
    // The value lies in [2^e, 2^(e+1)).
    let e = exp2 + mant.bits() as i64 - 1;
    // The spacing of representable numbers near the value: 2^q.
    let q = e.max(emin) - (p - 1);
    let shift = q - exp2;
    let mut m: BigUint = if shift <= 0 {
        mant << (-shift) as usize
    } else {
        let shift = shift as usize;
        let kept: BigUint = mant >> shift;
        let rest = mant - (&kept << shift);
        let half = BigUint::one() << (shift - 1);
        if rest > half || (rest == half && kept.bit(0)) {
            kept + 1u32
        } else {
            kept
        }
    };
    let mut q = q;
    if m.bits() as i64 > p {
        // Rounding carried to 2^p.
        m >>= 1usize;
        q += 1;
    }
    let m = m.to_u64().expect("at most 53 bits");
    if m == 0 {
        return sign;
    }
    if m < 1u64 << (p - 1) {
        // Subnormal: q is the smallest spacing and the exponent field is 0.
        return sign | m;
    }
    let biased = q + (p - 1) + kind.bias();
    if biased >= (1i64 << kind.ebits()) - 1 {
        return kind.infinity(negative);
    }
    sign | ((biased as u64) << kind.frac_bits()) | (m & kind.frac_mask())
}

/// An integer rounded to nearest, ties to even, into `kind` (C's conversion).
pub fn from_bigint(kind: FloatKind, n: &BigInt) -> u64 {
    round_scaled(kind, n.sign() == Sign::Minus, n.magnitude(), 0)
}

/// The value truncated toward zero as an integer; `None` for NaN and infinities.
pub fn trunc_to_bigint(kind: FloatKind, bits: u64) -> Option<BigInt> {
    if kind.is_nan(bits) || kind.is_infinite(bits) {
        return None;
    }
    let (negative, mant, exp2) = decompose(kind, bits);
    let magnitude = if exp2 >= 0 {
        BigUint::from(mant) << exp2 as usize
    } else if -exp2 >= 64 {
        BigUint::zero()
    } else {
        BigUint::from(mant >> (-exp2) as u32)
    };
    let n = BigInt::from(magnitude);
    Some(if negative { -n } else { n })
}

/// A finite value as sign, integer significand and power of two: `±mant · 2^exp2`.
fn decompose(kind: FloatKind, bits: u64) -> (bool, u64, i64) {
    let negative = bits & kind.sign_bit() != 0;
    let biased = ((bits & kind.exp_mask()) >> kind.frac_bits()) as i64;
    let frac = bits & kind.frac_mask();
    let p = i64::from(kind.frac_bits());
    if biased == 0 {
        (negative, frac, 1 - kind.bias() - p)
    } else {
        (negative, frac | (1u64 << p), biased - kind.bias() - p)
    }
}

/// Why a literal has no value of its type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiteralError {
    /// Not a float literal at all.
    Syntax,
    /// Its magnitude rounds to infinity.
    Overflow,
    /// It is not zero but rounds to zero.
    Underflow,
}

/// A float literal as `.fe` and C write it: decimal (`1.5`, `1e-3`, `2.`), or hex
/// (`0x1.8p+1`); a suffix `f`/`F` makes it a `float`, otherwise it is a `double`. No
/// sign (a `-` in front is negation, which is exact). Returns the format and the bits,
/// rounded to nearest, ties to even.
pub fn parse_literal(text: &str) -> Result<(FloatKind, u64), LiteralError> {
    let (body, kind) = match text.strip_suffix(['f', 'F']) {
        Some(b) if !is_hex(text) || has_binary_exponent(b) => (b, FloatKind::F32),
        _ => (text, FloatKind::F64),
    };
    parse_literal_as(body, kind).map(|bits| (kind, bits))
}

fn is_hex(text: &str) -> bool {
    text.starts_with("0x") || text.starts_with("0X")
}

fn has_binary_exponent(text: &str) -> bool {
    text.contains(['p', 'P'])
}

/// An unsuffixed, unsigned literal rounded into `kind`.
pub fn parse_literal_as(body: &str, kind: FloatKind) -> Result<u64, LiteralError> {
    let (mant, exp2) = if is_hex(body) {
        hex_parts(&body[2..]).ok_or(LiteralError::Syntax)?
    } else {
        return decimal(body, kind);
    };
    let bits = round_scaled(kind, false, &mant, exp2);
    check_range(kind, bits, !mant.is_zero())
}

fn check_range(kind: FloatKind, bits: u64, nonzero: bool) -> Result<u64, LiteralError> {
    if kind.is_infinite(bits) {
        Err(LiteralError::Overflow)
    } else if bits == 0 && nonzero {
        Err(LiteralError::Underflow)
    } else {
        Ok(bits)
    }
}

/// `h.hhhp±d` without `0x`: the hex digits as one integer and the power of two.
fn hex_parts(text: &str) -> Option<(BigUint, i64)> {
    let (digits, exp) = text.split_once(['p', 'P'])?;
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let all: String = int.chars().chain(frac.chars()).collect();
    let mant =
        if all.is_empty() { BigUint::zero() } else { BigUint::parse_bytes(all.as_bytes(), 16)? };
    let exp = exp.strip_prefix('+').unwrap_or(exp);
    if exp.is_empty()
        || exp.len() > 12
        || !exp.trim_start_matches('-').bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let exp: i64 = exp.parse().ok()?;
    Some((mant, exp - 4 * frac.len() as i64))
}

fn decimal(body: &str, kind: FloatKind) -> Result<u64, LiteralError> {
    let ok = !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
        && body.bytes().next().is_some_and(|b| b.is_ascii_digit() || b == b'.');
    if !ok {
        return Err(LiteralError::Syntax);
    }
    let mantissa = body.split(['e', 'E']).next().unwrap_or("");
    let nonzero = mantissa.bytes().any(|b| (b'1'..=b'9').contains(&b));
    // Rust's float parsing rounds correctly (to nearest, ties to even), for each format.
    let bits = match kind {
        FloatKind::F32 => {
            u64::from(body.parse::<f32>().map_err(|_| LiteralError::Syntax)?.to_bits())
        }
        FloatKind::F64 => body.parse::<f64>().map_err(|_| LiteralError::Syntax)?.to_bits(),
    };
    check_range(kind, bits, nonzero)
}

/// The shortest decimal that reads back as the same value (Rust's `{:?}`): `0.1`,
/// `1e-7`, `-0.0`, `inf`, `nan`. No `f` suffix.
pub fn decimal_text(kind: FloatKind, bits: u64) -> String {
    if kind.is_nan(bits) {
        return "nan".into();
    }
    let s = match kind {
        FloatKind::F32 => format!("{:?}", f32::from_bits(bits as u32)),
        FloatKind::F64 => format!("{:?}", f64::from_bits(bits)),
    };
    // Rust writes `1e16` and `1.5e-7`; both are C and `.fe` literals as they are.
    s
}

/// The value as C's `printf("%a")` prints it (binary32 values as the double they widen
/// to, as `printf` receives them): `0x1.8p+1`, `-0x0p+0`, `0x0.0000000000001p-1022`,
/// `inf`, `nan`. Exact. No `f` suffix.
pub fn hex_text(kind: FloatKind, bits: u64) -> String {
    if kind.is_nan(bits) {
        return "nan".into();
    }
    let d = kind.to_f64(bits);
    let b = d.to_bits();
    let sign = if b >> 63 == 1 { "-" } else { "" };
    if d.is_infinite() {
        return format!("{sign}inf");
    }
    let biased = ((b >> 52) & 0x7ff) as i64;
    let frac = b & ((1u64 << 52) - 1);
    if biased == 0 && frac == 0 {
        return format!("{sign}0x0p+0");
    }
    let (lead, exp) = if biased == 0 { (0, -1022) } else { (1, biased - 1023) };
    let mut digits = format!("{frac:013x}");
    while digits.ends_with('0') {
        digits.pop();
    }
    let dot = if digits.is_empty() { "" } else { "." };
    let esign = if exp >= 0 { "+" } else { "" };
    format!("{sign}0x{lead}{dot}{digits}p{esign}{exp}")
}

/// A value of `kind` as people type it: a literal as above with an optional sign, or
/// `nan`, `inf`, `-inf` (any case; a trailing `f` is allowed). Rounded into `kind`
/// whatever its suffix says. `None` when it is not a float.
pub fn parse_value_text(text: &str, kind: FloatKind) -> Option<u64> {
    let t = text.trim();
    let (negative, body) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let lower = body.to_ascii_lowercase();
    let word = lower.strip_suffix('f').filter(|w| matches!(*w, "nan" | "inf")).unwrap_or(&lower);
    let bits = match word {
        "nan" => return Some(kind.nan()),
        "inf" | "infinity" => kind.infinity(false),
        _ => {
            let unsuffixed = match body.strip_suffix(['f', 'F']) {
                Some(b) if !is_hex(body) || has_binary_exponent(b) => b,
                _ => body,
            };
            match parse_literal_as(unsuffixed, kind) {
                Ok(bits) => bits,
                // Typed values may be as large or small as the format allows to round.
                Err(LiteralError::Overflow) => kind.infinity(false),
                Err(LiteralError::Underflow) => kind.zero(false),
                Err(LiteralError::Syntax) => return None,
            }
        }
    };
    Some(if negative { bits ^ kind.sign_bit() } else { bits })
}

/// Whether `text` looks like a float value (for untyped parsing): a decimal point, an
/// exponent, a hex float, `nan` or `inf`.
pub fn looks_like_float(text: &str) -> bool {
    let t = text.trim().trim_start_matches(['-', '+']).to_ascii_lowercase();
    if matches!(t.as_str(), "nan" | "inf" | "infinity" | "nanf" | "inff") {
        return true;
    }
    if t.starts_with("0x") {
        return t.contains('p');
    }
    t.bytes().next().is_some_and(|b| b.is_ascii_digit() || b == b'.')
        && (t.contains('.') || t.contains('e'))
}

#[cfg(test)]
mod reciprocal_tests {
    use super::*;

    #[test]
    fn only_powers_of_two_with_a_representable_reciprocal() {
        let r = |x: f64| exact_reciprocal(FloatKind::F64, x.to_bits()).map(f64::from_bits);
        assert_eq!(r(2.0), Some(0.5));
        assert_eq!(r(-0.25), Some(-4.0));
        assert_eq!(r(2f64.powi(1023)), Some(2f64.powi(-1023))); // a subnormal reciprocal
        assert_eq!(r(f64::from_bits(1)), None); // 2^-1074: 2^1074 overflows
        assert_eq!(r(3.0), None);
        assert_eq!(r(0.0), None);
        assert_eq!(r(f64::INFINITY), None);
        let f = |x: f32| exact_reciprocal(FloatKind::F32, u64::from(x.to_bits()));
        assert_eq!(f(8.0), Some(u64::from(0.125f32.to_bits())));
        assert_eq!(f(f32::from_bits(1)), None); // 2^-149: 2^149 is no binary32
        assert_eq!(f(2f32.powi(127)), Some(u64::from(2f32.powi(-127).to_bits())));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use FloatKind::*;

    #[test]
    fn integers_round_to_nearest_even() {
        for n in [
            0i64,
            1,
            -1,
            3,
            1 << 24,
            (1 << 24) + 1,
            (1 << 24) + 3,
            i64::MAX,
            i64::MIN,
            -(1 << 53) - 1,
        ] {
            assert_eq!(from_bigint(F32, &BigInt::from(n)), u64::from((n as f32).to_bits()), "{n}");
            assert_eq!(from_bigint(F64, &BigInt::from(n)), (n as f64).to_bits(), "{n}");
        }
        let huge = BigInt::from(1) << 2000usize;
        assert_eq!(from_bigint(F64, &huge), f64::INFINITY.to_bits());
        assert_eq!(
            from_bigint(F32, &-(BigInt::from(1) << 128usize)),
            u64::from(f32::NEG_INFINITY.to_bits())
        );
        // f32::MAX rounds up to infinity from its half ulp on (ties to even: the odd MAX).
        let max = BigInt::from(f32::MAX as u128);
        let half_ulp = BigInt::from(1u128 << 103);
        assert_eq!(from_bigint(F32, &(&max + &half_ulp - 1)), u64::from(f32::MAX.to_bits()));
        assert_eq!(from_bigint(F32, &(&max + &half_ulp)), u64::from(f32::INFINITY.to_bits()));
    }

    #[test]
    fn literals_parse_exactly() {
        assert_eq!(parse_literal("1.5"), Ok((F64, 1.5f64.to_bits())));
        assert_eq!(parse_literal("0.1f"), Ok((F32, u64::from(0.1f32.to_bits()))));
        assert_eq!(parse_literal("1e-3"), Ok((F64, 1e-3f64.to_bits())));
        assert_eq!(parse_literal("0x1.8p+1"), Ok((F64, 3.0f64.to_bits())));
        assert_eq!(parse_literal("0x1p-1074"), Ok((F64, 1)));
        assert_eq!(parse_literal("0x1p-149f"), Ok((F32, 1)));
        assert_eq!(parse_literal("0x1.fffffffffffff8p+0"), Ok((F64, 2.0f64.to_bits())));
        assert_eq!(parse_literal("1e999"), Err(LiteralError::Overflow));
        assert_eq!(parse_literal("1e39f"), Err(LiteralError::Overflow));
        assert_eq!(parse_literal("1e-999"), Err(LiteralError::Underflow));
        assert_eq!(parse_literal("0.0e-999"), Ok((F64, 0)));
        assert_eq!(parse_literal("0x1p-1076"), Err(LiteralError::Underflow));
        // A tie at the smallest subnormal rounds to even (zero is even): underflow.
        assert_eq!(parse_literal("0x1p-1075"), Err(LiteralError::Underflow));
        assert_eq!(parse_literal("0x1.1p-1075"), Ok((F64, 1)));
    }

    #[test]
    fn text_forms_are_exact_and_read_back() {
        let cases: [(FloatKind, u64, &str, &str); 8] = [
            (F64, 3.0f64.to_bits(), "3.0", "0x1.8p+1"),
            (F64, 0.1f64.to_bits(), "0.1", "0x1.999999999999ap-4"),
            (F64, (-0.0f64).to_bits(), "-0.0", "-0x0p+0"),
            (F64, 1, "5e-324", "0x0.0000000000001p-1022"),
            (F32, 1, "1e-45", "0x1p-149"),
            (F32, u64::from(0.1f32.to_bits()), "0.1", "0x1.99999ap-4"),
            (F64, f64::NEG_INFINITY.to_bits(), "-inf", "-inf"),
            (F64, F64.nan(), "nan", "nan"),
        ];
        for (kind, bits, dec, hex) in cases {
            assert_eq!(decimal_text(kind, bits), dec);
            assert_eq!(hex_text(kind, bits), hex);
            assert_eq!(parse_value_text(dec, kind), Some(bits), "{dec}");
            assert_eq!(parse_value_text(hex, kind), Some(bits), "{hex}");
        }
    }

    #[test]
    fn truncation_toward_zero() {
        assert_eq!(trunc_to_bigint(F64, (-2.75f64).to_bits()), Some(BigInt::from(-2)));
        assert_eq!(trunc_to_bigint(F64, 1e300f64.to_bits()).map(|n| n.bits()), Some(997));
        assert_eq!(trunc_to_bigint(F32, 1), Some(BigInt::zero()));
        assert_eq!(trunc_to_bigint(F64, F64.nan()), None);
        assert_eq!(trunc_to_bigint(F64, f64::INFINITY.to_bits()), None);
    }
}
