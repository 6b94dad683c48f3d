//! The random generator's constant tables, rebuilt exactly on first use: the ziggurat's layer
//! edges `x` and their `exp(-x)` (from [`super::zig_table`]) and `ln(1 + i/128)` (from
//! [`super::ln_table`]).
//!
//! Each value is computed with basic IEEE operations only (the same bits on every platform) and
//! then moved by its stored correction, a few units in the last place, onto the constant it must
//! equal. Stored as doubles the tables would not compress; as small corrections they do, so they
//! are kept this way for the first module's size: see docs/size.md. Building them once takes about
//! 40 µs (natively).

use std::sync::OnceLock;

use super::ln_table::LN_ULPS;
use super::zig_table::{ZIG_EXP_F_ULPS, ZIG_EXP_R, ZIG_EXP_V, ZIG_EXP_X_ULPS};
use crate::sim::support::ieee_math::{exp_neg, ln_with};

/// The tables, exactly as the constants they are built to equal.
pub(crate) struct Tables {
    /// Ziggurat layer edges, `x[0] = v / f(r) > x[1] = r > … > x[256] = 0`.
    pub(crate) x: [f64; 257],
    /// `exp(-x[i])` for each edge.
    pub(crate) f: [f64; 257],
    /// `ln(1 + i/128)` for `i` in `0..128`.
    pub(crate) ln: [f64; 128],
}

impl std::fmt::Debug for Tables {
    /// Constants: not worth printing (nor bringing float printing into a module).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tables")
    }
}

/// The tables, built by the first caller.
#[inline(always)]
pub(crate) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build)
}

/// `approx` moved by `ulps` units in the last place (the values are positive and finite).
fn corrected(approx: f64, ulps: i8) -> f64 {
    f64::from_bits(approx.to_bits().wrapping_add_signed(i64::from(ulps)))
}

/// `ln(c)` for `c` in `[1, 2)` as `2 · atanh((c − 1)/(c + 1))`, summed to thirty terms.
fn ln_series(c: f64) -> f64 {
    let z = (c - 1.0) / (c + 1.0);
    let z2 = z * z;
    let mut term = z;
    let mut sum = 0.0;
    for k in 0..30 {
        sum += term / f64::from(2 * k + 1);
        term *= z2;
    }
    2.0 * sum
}

#[cold]
fn build() -> Tables {
    let ln: [f64; 128] = std::array::from_fn(|i| corrected(ln_series(1.0 + i as f64 / 128.0), LN_ULPS[i]));
    let (mut x, mut f) = ([0.0; 257], [0.0; 257]);
    x[1] = ZIG_EXP_R;
    f[1] = corrected(exp_neg(x[1]), ZIG_EXP_F_ULPS[1]);
    // Each layer has area v: the next edge from this one (Marsaglia & Tsang's recurrence).
    for i in 1..255 {
        x[i + 1] = corrected(-ln_with(&ln, ZIG_EXP_V / x[i] + f[i]), ZIG_EXP_X_ULPS[i + 1]);
        f[i + 1] = corrected(exp_neg(x[i + 1]), ZIG_EXP_F_ULPS[i + 1]);
    }
    f[256] = 1.0; // x[256] = 0
    x[0] = corrected(ZIG_EXP_V / f[1], ZIG_EXP_X_ULPS[0]);
    f[0] = corrected(exp_neg(x[0]), ZIG_EXP_F_ULPS[0]);
    Tables { x, f, ln }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(built: &[f64], constants: &[f64], what: &str) {
        assert_eq!(built.len(), constants.len());
        for (i, (b, c)) in built.iter().zip(constants).enumerate() {
            assert_eq!(b.to_bits(), c.to_bits(), "{what}[{i}]: built {b}, the constant is {c}");
        }
    }

    #[test]
    fn the_ziggurat_edges_are_rebuilt_bit_for_bit() {
        same(&tables().x, &super::super::zig_table::ZIG_EXP_X, "x");
        same(&tables().f, &super::super::zig_table::ZIG_EXP_F, "f");
    }

    #[test]
    fn the_logarithms_are_rebuilt_bit_for_bit() {
        same(&tables().ln, &super::super::ln_table::LN_TABLE, "ln");
    }
}
