//! `--shard i/n`: a deterministic split of a batch's tuples into n parts, so that a CI
//! matrix of n jobs decides every tuple exactly once.
//!
//! A tuple's shard is a stable hash (64-bit FNV-1a, fixed here, not the standard
//! library's randomly seeded hasher) of its file's path relative to the command-line
//! argument it was found under, and its name. Relative paths keep the split the same on
//! machines that check the repository out in different places. A file that fails to
//! load is one entry, hashed with an empty tuple name.

use super::Entry;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("`{s}`: expected i/n with 1 ≤ i ≤ n, e.g. 2/4");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

fn fnv1a(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        // A separator byte that cannot occur in UTF-8 keeps ("ab","c") ≠ ("a","bc").
        for b in part.bytes().chain([0xff]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// `file` relative to the argument it was found under (a file named directly: its name),
/// with `/` separators.
pub fn relative(file: &Path, args: &[PathBuf]) -> String {
    let rel = args
        .iter()
        .filter(|a| a.as_path() != file)
        .find_map(|a| file.strip_prefix(a).ok())
        .unwrap_or_else(|| file.file_name().map_or(file, Path::new));
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

impl Shard {
    /// Whether the tuple `tuple` of `relative_file` belongs to this shard.
    pub fn holds(&self, relative_file: &str, tuple: &str) -> bool {
        fnv1a(&[relative_file, tuple]) % self.count == self.index - 1
    }

    /// Keeps the entries of this shard. `args` are the paths given on the command line.
    pub fn retain(&self, entries: &mut Vec<Entry>, args: &[PathBuf]) {
        entries.retain(|e| {
            let (file, tuple) = match e {
                Entry::Done(r) => (r.file.as_str(), r.tuple.as_deref().unwrap_or("")),
                Entry::Todo { file, tuple, .. } => (file.as_str(), tuple.name.as_str()),
            };
            self.holds(&relative(Path::new(file), args), tuple)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects() {
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn every_tuple_in_exactly_one_shard_and_stable() {
        for n in 1..6u64 {
            for t in 0..50 {
                let name = format!("t{t}");
                let owners = (1..=n)
                    .filter(|&i| Shard { index: i, count: n }.holds("dir/f.fe", &name))
                    .count();
                assert_eq!(owners, 1);
            }
        }
        // The hash is fixed: the same split on every machine and every build.
        assert_eq!(fnv1a(&[""]), 0xaf64_724c_8602_eb6e);
    }

    #[test]
    fn paths_relative_to_their_argument() {
        let args = [PathBuf::from("/x/suite"), PathBuf::from("/y/one.fe")];
        assert_eq!(relative(Path::new("/x/suite/a/b.fe"), &args), "a/b.fe");
        assert_eq!(relative(Path::new("/y/one.fe"), &args), "one.fe");
    }
}
