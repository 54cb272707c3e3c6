//! Questions about project paths that every layer above asks.

/// The `/`-separated components of a path (found with `memchr`).
pub fn path_components(path: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut start = 0;
    memchr::memchr_iter(b'/', path).chain(std::iter::once(path.len())).map(move |end| {
        let c = &path[start..end];
        start = end + 1;
        c
    })
}

/// Whether a path lies in vendored or third-party code (copied in, not written
/// by the project).
pub fn is_vendored(path: &str) -> bool {
    // The names start `v`, `t`, `e` or `n`: most components are passed at one byte.
    path_components(path.as_bytes()).any(|c| {
        matches!(c.first(), Some(b'v' | b't' | b'e' | b'n'))
            && matches!(
                c,
                b"vendor"
                    | b"vendored"
                    | b"third_party"
                    | b"third-party"
                    | b"thirdparty"
                    | b"external"
                    | b"node_modules"
            )
    })
}

/// Whether `path` is `target` or lies under the folder `target` ("" is the root).
pub fn under(path: &str, target: &str) -> bool {
    target.is_empty()
        || path == target
        || (path.starts_with(target) && path.as_bytes().get(target.len()) == Some(&b'/'))
}
