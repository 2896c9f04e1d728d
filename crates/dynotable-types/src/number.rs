//! `Number`: DynamoDB's exact decimal.
//!
//! Rule B.7 (docs/dynamodb-rules.md): a number has at most 38 significant digits; a non-zero magnitude
//! lies in 1E-130 ..= 9.9999999999999999999999999999999999999E+125; zero is allowed.
//! Rule B.9: numbers compare numerically (arbitrary-precision decimal, not float: `1E2` equals
//! `100`) and are normalised on storage: leading zeros dropped (`0042`→`42`), trailing fraction
//! zeros dropped (`1.200`→`1.2`), exponent notation expanded (`1.5E2`→`150`), `-0`→`0`.
//!
//! # Representation
//!
//! `sign × coefficient × 10^exponent`, with the coefficient (at most 38 digits, so below 2^127)
//! stored as two `u64` halves, the decimal exponent as an `i16`, and the invariant that the
//! coefficient has no trailing zero digit (zero is `0 × 10^0`, never negative). Every value has
//! exactly one representation, so the derived `Eq` and `Hash` are numeric equality, and the
//! type is `Copy` and 24 bytes.
//!
//! # Accepted spellings
//!
//! The service reads numbers with Java's `BigDecimal` grammar (captures of the live service
//! agree: `+5`, `1e+2`, `1.5E+3`, `.5` and `5.` are accepted; whitespace, `NaN`, `Infinity`,
//! hex, `1_000`, a bare `.` and a digitless exponent are not):
//!
//! ```text
//! number   := sign? mantissa exponent?
//! sign     := '+' | '-'
//! mantissa := digits ('.' digits?)? | '.' digits
//! exponent := ('e' | 'E') sign? digits
//! ```
//!
//! Checks run in this order: syntax (`The parameter cannot be converted to a numeric value`),
//! significant digits, then range (overflow / underflow) — the order dynoxide (DYX) measured.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use crate::error::ValidationError;

/// At most this many significant decimal digits (rule B.7).
pub const MAX_SIGNIFICANT_DIGITS: u32 = 38;
/// The largest decimal exponent of a non-zero number in scientific notation (`9.99…E+125`).
pub const MAX_SCIENTIFIC_EXPONENT: i32 = 125;
/// The smallest decimal exponent of a non-zero number in scientific notation (`1E-130`).
pub const MIN_SCIENTIFIC_EXPONENT: i32 = -130;

/// `10^i` for every `i` a 38-digit coefficient can need.
const POW10: [u128; 39] = {
    let mut table = [1u128; 39];
    let mut i = 1;
    while i < 39 {
        table[i] = table[i - 1] * 10;
        i += 1;
    }
    table
};

/// An exact DynamoDB number (rules B.7, B.9). See the module documentation.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Number {
    /// Low 64 bits of the coefficient.
    lo: u64,
    /// High 64 bits of the coefficient.
    hi: u64,
    /// Power of ten the coefficient is multiplied by; 0 for zero.
    exponent: i16,
    /// Number of decimal digits in the coefficient; 0 for zero.
    digits: u8,
    /// Sign; never set for zero.
    negative: bool,
}

impl Number {
    /// The number 0.
    pub const ZERO: Number = Number {
        lo: 0,
        hi: 0,
        exponent: 0,
        digits: 0,
        negative: false,
    };

    /// Parses a number as DynamoDB reads the `N` of an AttributeValue (rules B.7, B.9).
    ///
    /// # Errors
    ///
    /// [`ValidationError::EmptyNumber`] / [`ValidationError::InvalidNumber`] for text outside the
    /// grammar, then [`ValidationError::TooManyDigits`], then
    /// [`ValidationError::NumberOverflow`] / [`ValidationError::NumberUnderflow`].
    pub fn parse(text: &str) -> Result<Number, ValidationError> {
        let parsed = scan(text.as_bytes()).ok_or_else(|| {
            if text.is_empty() {
                ValidationError::EmptyNumber
            } else {
                ValidationError::InvalidNumber(text.to_owned())
            }
        })?;
        match parsed {
            Scanned::Zero => Ok(Number::ZERO),
            Scanned::TooManyDigits => Err(ValidationError::TooManyDigits),
            Scanned::Value {
                negative,
                coefficient,
                exponent,
            } => {
                // `scan` already dropped trailing zeros; only the range remains to check. An
                // exponent far outside i32 cannot be in range, whatever the digits.
                let exponent =
                    i32::try_from(exponent).unwrap_or(if exponent > 0 { i32::MAX } else { i32::MIN });
                Number::from_parts(negative, coefficient, exponent)
            }
        }
    }

    /// `(-1)^negative × coefficient × 10^exponent`, normalised.
    ///
    /// # Errors
    ///
    /// [`ValidationError::TooManyDigits`] if the coefficient keeps more than 38 digits once its
    /// trailing zeros are moved into the exponent, then the range errors.
    pub fn from_parts(negative: bool, coefficient: u128, exponent: i32) -> Result<Number, ValidationError> {
        if coefficient == 0 {
            return Ok(Number::ZERO);
        }
        let mut coefficient = coefficient;
        let mut exponent = i64::from(exponent);
        while coefficient.is_multiple_of(10) {
            coefficient /= 10;
            exponent += 1;
        }
        let digits = coefficient.ilog10() + 1;
        if digits > MAX_SIGNIFICANT_DIGITS {
            return Err(ValidationError::TooManyDigits);
        }
        let scientific = exponent + i64::from(digits) - 1;
        if scientific > i64::from(MAX_SCIENTIFIC_EXPONENT) {
            return Err(ValidationError::NumberOverflow);
        }
        if scientific < i64::from(MIN_SCIENTIFIC_EXPONENT) {
            return Err(ValidationError::NumberUnderflow);
        }
        Ok(Number {
            lo: coefficient as u64,
            hi: (coefficient >> 64) as u64,
            // In range: exponent = scientific - digits + 1 ∈ [-167, 125].
            exponent: exponent as i16,
            digits: digits as u8,
            negative,
        })
    }

    /// The coefficient: the significant digits as an integer, with no trailing zero (0 for zero).
    pub fn coefficient(&self) -> u128 {
        (u128::from(self.hi) << 64) | u128::from(self.lo)
    }

    /// The power of ten the coefficient is multiplied by (0 for zero).
    pub fn exponent(&self) -> i32 {
        i32::from(self.exponent)
    }

    /// The number of significant digits (0 for zero).
    pub fn significant_digits(&self) -> u32 {
        u32::from(self.digits)
    }

    /// The exponent in scientific notation: `1.5E2` → 2, `0.05` → -2. `None` for zero.
    pub fn scientific_exponent(&self) -> Option<i32> {
        (!self.is_zero()).then(|| self.exponent() + self.significant_digits() as i32 - 1)
    }

    /// Whether this is 0.
    pub fn is_zero(&self) -> bool {
        self.digits == 0
    }

    /// Whether this is below 0.
    pub fn is_negative(&self) -> bool {
        self.negative
    }

    /// Whether this is a whole number.
    pub fn is_integer(&self) -> bool {
        self.exponent >= 0
    }

    /// The number with its sign flipped (0 stays 0). Always in range: the range is symmetric.
    #[must_use]
    pub fn negated(&self) -> Number {
        Number {
            negative: !self.negative && !self.is_zero(),
            ..*self
        }
    }

    /// The magnitude.
    #[must_use]
    pub fn abs(&self) -> Number {
        Number {
            negative: false,
            ..*self
        }
    }

    /// Exact `self + other`, as `SET a = a + :n` and `ADD` compute it.
    ///
    /// # Errors
    ///
    /// [`ValidationError::TooManyDigits`] when the exact result needs more than 38 significant
    /// digits (e.g. `1E125 + 1`), [`ValidationError::NumberOverflow`] /
    /// [`ValidationError::NumberUnderflow`] when it leaves the range. Nothing is ever rounded.
    pub fn checked_add(&self, other: &Number) -> Result<Number, ValidationError> {
        if self.is_zero() {
            return Ok(*other);
        }
        if other.is_zero() {
            return Ok(*self);
        }
        // Align on the smaller exponent: `high` is the operand whose digits start higher up.
        let (high, low) = if self.exponent >= other.exponent {
            (self, other)
        } else {
            (other, self)
        };
        let shift = (i32::from(high.exponent) - i32::from(low.exponent)) as u32;
        let span = shift + high.significant_digits();
        // The lowest digit of the result sits at `low`'s exponent and is non-zero whenever
        // shift > 0, so the result spans at least `span - 1` digits (`span` if the signs agree).
        if span > MAX_SIGNIFICANT_DIGITS + 1 {
            return Err(ValidationError::TooManyDigits);
        }
        let low_exponent = i32::from(low.exponent);
        if high.negative == low.negative {
            if span > MAX_SIGNIFICANT_DIGITS {
                return Err(ValidationError::TooManyDigits);
            }
            // Both terms are below 10^38, so the sum fits easily in a u128.
            let sum = high.coefficient() * POW10[shift as usize] + low.coefficient();
            return Number::from_parts(high.negative, sum, low_exponent);
        }
        if span <= MAX_SIGNIFICANT_DIGITS {
            let a = high.coefficient() * POW10[shift as usize];
            let b = low.coefficient();
            return match a.cmp(&b) {
                Ordering::Equal => Ok(Number::ZERO),
                Ordering::Greater => Number::from_parts(high.negative, a - b, low_exponent),
                Ordering::Less => Number::from_parts(low.negative, b - a, low_exponent),
            };
        }
        // span == 39: |high| ≥ 10^38 · 10^low.exponent > |low|, but high's coefficient shifted
        // by `shift` may not fit a u128. Subtract one decade lower: a·10 − (q·10 + r).
        let a_tenth = high.coefficient() * POW10[shift as usize - 1];
        let (q, r) = (low.coefficient() / 10, low.coefficient() % 10);
        let difference = (a_tenth - q)
            .checked_mul(10)
            .ok_or(ValidationError::TooManyDigits)?
            - r;
        Number::from_parts(high.negative, difference, low_exponent)
    }

    /// Exact `self - other`; see [`Number::checked_add`].
    ///
    /// # Errors
    ///
    /// As [`Number::checked_add`].
    pub fn checked_sub(&self, other: &Number) -> Result<Number, ValidationError> {
        self.checked_add(&other.negated())
    }

    /// The value as an `i64` if it is a whole number in `i64`'s range.
    pub fn to_i64(&self) -> Option<i64> {
        if self.is_zero() {
            return Some(0);
        }
        if self.exponent < 0 || self.exponent as u32 + self.significant_digits() > 19 {
            return None;
        }
        let magnitude = self.coefficient().checked_mul(POW10[self.exponent as usize])?;
        let magnitude = i128::try_from(magnitude).ok()?;
        i64::try_from(if self.negative { -magnitude } else { magnitude }).ok()
    }

    /// The nearest `f64` (correctly rounded). For display and estimates only: never compare or
    /// store through it.
    pub fn to_f64(&self) -> f64 {
        let sign = if self.negative { "-" } else { "" };
        format!("{sign}{}e{}", self.coefficient(), self.exponent)
            .parse()
            .unwrap_or(f64::NAN)
    }

    fn signum(&self) -> i8 {
        if self.is_zero() {
            0
        } else if self.negative {
            -1
        } else {
            1
        }
    }

    /// Compares magnitudes of two non-zero numbers.
    fn cmp_magnitude(&self, other: &Number) -> Ordering {
        let (a, b) = (self.scientific_exponent(), other.scientific_exponent());
        a.cmp(&b).then_with(|| {
            // Same leading power of ten: compare the digit strings, padded to equal length.
            let (da, db) = (self.significant_digits(), other.significant_digits());
            if da >= db {
                self.coefficient()
                    .cmp(&(other.coefficient() * POW10[(da - db) as usize]))
            } else {
                (self.coefficient() * POW10[(db - da) as usize]).cmp(&other.coefficient())
            }
        })
    }

    /// The coefficient's digits, most significant first, as ASCII.
    fn digit_bytes(&self) -> ([u8; 39], usize) {
        let mut buffer = [b'0'; 39];
        let mut rest = self.coefficient();
        let len = self.significant_digits().max(1) as usize;
        for slot in buffer[..len].iter_mut().rev() {
            *slot = b'0' + (rest % 10) as u8;
            rest /= 10;
        }
        (buffer, len)
    }
}

/// Numeric order (rule B.9): negatives, zero, positives; `1E2 == 100`.
impl Ord for Number {
    fn cmp(&self, other: &Self) -> Ordering {
        let (sa, sb) = (self.signum(), other.signum());
        match sa.cmp(&sb) {
            Ordering::Equal if sa == 0 => Ordering::Equal,
            Ordering::Equal if sa < 0 => self.cmp_magnitude(other).reverse(),
            Ordering::Equal => self.cmp_magnitude(other),
            unequal => unequal,
        }
    }
}

impl PartialOrd for Number {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The canonical text DynamoDB returns (rule B.9): plain notation, no exponent, no leading or
/// trailing zeros, no `+`, `0` for zero. E.g. `1.5E2` → `150`, `-.50` → `-0.5`, `1E-3` → `0.001`.
impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_zero() {
            return f.write_str("0");
        }
        if self.negative {
            f.write_str("-")?;
        }
        let (buffer, len) = self.digit_bytes();
        // The coefficient's digits are ASCII, so this never fails.
        let digits = std::str::from_utf8(&buffer[..len]).map_err(|_| fmt::Error)?;
        let exponent = i32::from(self.exponent);
        if exponent >= 0 {
            f.write_str(digits)?;
            return write_zeros(f, exponent as usize);
        }
        let point = len as i32 + exponent;
        if point > 0 {
            let (whole, fraction) = digits.split_at(point as usize);
            write!(f, "{whole}.{fraction}")
        } else {
            f.write_str("0.")?;
            write_zeros(f, (-point) as usize)?;
            f.write_str(digits)
        }
    }
}

fn write_zeros(f: &mut fmt::Formatter<'_>, count: usize) -> fmt::Result {
    const ZEROS: &str = "0000000000000000000000000000000000000000000000000000000000000000";
    let mut left = count;
    while left > 0 {
        let chunk = left.min(ZEROS.len());
        f.write_str(&ZEROS[..chunk])?;
        left -= chunk;
    }
    Ok(())
}

impl fmt::Debug for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Number({self})")
    }
}

impl FromStr for Number {
    type Err = ValidationError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Number::parse(text)
    }
}

impl Default for Number {
    fn default() -> Self {
        Number::ZERO
    }
}

macro_rules! from_integer {
    ($($t:ty),*) => {$(
        impl From<$t> for Number {
            /// Exact: every value of this type has at most 20 digits.
            fn from(value: $t) -> Self {
                let magnitude = u128::from(value.unsigned_abs());
                Number::from_parts(value < 0, magnitude, 0).unwrap_or(Number::ZERO)
            }
        }
    )*};
}
from_integer!(i8, i16, i32, i64);

macro_rules! from_unsigned {
    ($($t:ty),*) => {$(
        impl From<$t> for Number {
            /// Exact: every value of this type has at most 20 digits.
            fn from(value: $t) -> Self {
                Number::from_parts(false, u128::from(value), 0).unwrap_or(Number::ZERO)
            }
        }
    )*};
}
from_unsigned!(u8, u16, u32, u64);

/// What `scan` read from a syntactically valid number.
enum Scanned {
    Zero,
    TooManyDigits,
    /// Coefficient without trailing zeros, and its exponent (wide: the text may be long).
    Value {
        negative: bool,
        coefficient: u128,
        exponent: i64,
    },
}

/// Reads the grammar in the module documentation; `None` if the text is not in it.
fn scan(text: &[u8]) -> Option<Scanned> {
    let mut i = 0;
    let negative = match text.first() {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };

    let mut coefficient: u128 = 0;
    let mut digits: u32 = 0; // digits in `coefficient`
    let mut pending_zeros: i64 = 0; // zeros after the last non-zero digit seen
    let mut too_many = false;
    let mut fraction_digits: i64 = 0;
    let mut mantissa_digits = 0usize;
    let mut in_fraction = false;

    while i < text.len() {
        let byte = text[i];
        match byte {
            b'0'..=b'9' => {
                mantissa_digits += 1;
                if in_fraction {
                    fraction_digits += 1;
                }
                if byte == b'0' {
                    if digits > 0 {
                        pending_zeros += 1;
                    }
                } else if !too_many {
                    let needed = i64::from(digits) + pending_zeros + 1;
                    if needed > i64::from(MAX_SIGNIFICANT_DIGITS) {
                        too_many = true;
                    } else {
                        coefficient =
                            coefficient * POW10[pending_zeros as usize + 1] + u128::from(byte - b'0');
                        digits = needed as u32;
                        pending_zeros = 0;
                    }
                }
            }
            b'.' if !in_fraction => in_fraction = true,
            _ => break,
        }
        i += 1;
    }
    if mantissa_digits == 0 {
        return None;
    }

    let mut exponent: i64 = 0;
    if i < text.len() {
        if text[i] != b'e' && text[i] != b'E' {
            return None;
        }
        i += 1;
        let exponent_negative = match text.get(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        let start = i;
        while let Some(byte @ b'0'..=b'9') = text.get(i) {
            // Java's BigDecimal refuses exponents beyond an int; so does this.
            exponent = exponent * 10 + i64::from(byte - b'0');
            if exponent > i64::from(i32::MAX) {
                return None;
            }
            i += 1;
        }
        if i == start || i != text.len() {
            return None;
        }
        if exponent_negative {
            exponent = -exponent;
        }
    }

    if digits == 0 && !too_many {
        return Some(Scanned::Zero);
    }
    if too_many {
        return Some(Scanned::TooManyDigits);
    }
    Some(Scanned::Value {
        negative,
        coefficient,
        exponent: exponent - fraction_digits + pending_zeros,
    })
}

#[cfg(test)]
mod tests;
