//! The system C compiler: which one forex runs, for the preprocessor of the C front end
//! (`c::preprocess`) and for the native oracle (`native::exec`).

/// The compilers tried, in order: `explicit` alone if given, else `$FOREX_CC`, `$CC`,
/// `cc`, `gcc`, `clang`.
pub fn candidates(explicit: Option<&str>) -> Vec<String> {
    let mut out: Vec<String> = explicit.map(str::to_string).into_iter().collect();
    if explicit.is_none() {
        for var in ["FOREX_CC", "CC"] {
            if let Ok(v) = std::env::var(var) {
                if !v.trim().is_empty() {
                    out.push(v.trim().to_string());
                }
            }
        }
        out.extend(["cc", "gcc", "clang"].map(String::from));
    }
    out
}
