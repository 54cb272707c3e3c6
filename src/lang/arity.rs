//! How many arguments a Java, C# or C++ method takes, read from its
//! prototype: computed when a segment's definitions table is written (so the
//! graph tells overloads apart by a call's number of arguments without reading
//! an archive).

use super::Language;

/// How many arguments a method takes: `fewest..=most` without its variadic
/// parameter, any number more with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arity {
    pub fewest: u8,
    pub most: u8,
    pub variadic: bool,
    /// A C# extension method: called on a value, that value is its first
    /// argument (`xs.First(p)` passes two).
    pub extension: bool,
}

/// The arguments a Java, C# or C++ method (or constructor)
/// named `name` takes, read from its prototype: its parameters split at
/// commas outside brackets; a C# / C++ parameter with a default value may be
/// left out, a varargs one (`T... xs`, C#'s `params`, C++'s `...`) takes any
/// number; a C# extension method is marked (its `this` parameter may be the
/// receiver of the call).
/// `None` in other languages or when the parameter list is not found.
pub fn arity_range<'a>(language: Language, name: &str, prototype: &'a str) -> Option<Arity> {
    // An unnamed method (C++'s conversion and anonymous declarations) is
    // called by no name (and an empty name is found everywhere).
    if !matches!(language, Language::Java | Language::CSharp | Language::Cpp)
        || name.is_empty()
        || name.starts_with("operator")
    {
        return None;
    }
    // The name's first occurrence followed by its parameter list (C#'s
    // generic `M<T>(..)` and C++'s `A::m(..)` included).
    let b = prototype.as_bytes();
    let mut open = None;
    let mut from = 0;
    let (nb, head) = (name.as_bytes(), name.as_bytes()[0]);
    // The next occurrence of the name (a byte scan: a `str::find` searcher
    // set up for every method was most of this function's time).
    let next = |from: usize| (from..b.len()).find(|&i| b[i] == head && b[i..].starts_with(nb));
    while let Some(i) = next(from) {
        from = i + name.len();
        let before = prototype[..i].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let mut j = from;
        let mut depth = 0i32;
        while j < b.len() {
            match b[j] {
                b'<' => depth += 1,
                b'>' => depth -= 1,
                b' ' | b'\t' => {}
                _ if depth > 0 => {}
                _ => break,
            }
            j += 1;
        }
        if b.get(j) == Some(&b'(') {
            open = Some(j);
            break;
        }
    }
    let open = open?;
    // Each parameter as it is found (no list is allocated: this runs for
    // every method when a segment's definitions table is written).
    let (mut lo, mut hi, mut count) = (0usize, 0usize, 0usize);
    let (mut unbounded, mut first) = (false, "");
    let mut parameter = |p: &'a str| {
        let p = p.trim();
        if count == 0 {
            first = p;
        }
        count += 1;
        // Attributes before a C# parameter (`[NotNull] string s`).
        let mut p = p;
        while let Some(rest) = p.strip_prefix('[') {
            p = rest.split_once(']').map_or("", |(_, after)| after.trim_start());
        }
        if p.contains("...") || (language == Language::CSharp && p.starts_with("params ")) {
            unbounded = true;
            return;
        }
        hi += 1;
        let defaulted = language != Language::Java && top_level_has(p, b'=');
        if !defaulted {
            lo += 1;
        }
    };
    let (mut depth, mut start, mut close) = (0i32, open + 1, None);
    for (j, &c) in b.iter().enumerate().skip(open + 1) {
        match c {
            b'(' | b'[' | b'{' | b'<' => depth += 1,
            b')' if depth == 0 => {
                close = Some(j);
                break;
            }
            b')' | b']' | b'}' | b'>' => depth -= 1,
            b',' if depth == 0 => {
                parameter(&prototype[start..j]);
                start = j + 1;
            }
            _ => {}
        }
    }
    let close = close?;
    parameter(&prototype[start..close]);
    if count == 1 && (first.is_empty() || (language == Language::Cpp && first == "void")) {
        return Some(Arity { fewest: 0, most: 0, variadic: false, extension: false });
    }
    let extension = language == Language::CSharp && first.starts_with("this ");
    let cap = |n: usize| n.min(u8::MAX as usize) as u8;
    Some(Arity { fewest: cap(lo), most: cap(hi), variadic: unbounded, extension })
}

/// `c` in `s` outside brackets (a default value's `=`, not one inside a
/// template argument or a nested call).
fn top_level_has(s: &str, c: u8) -> bool {
    let mut depth = 0i32;
    for &b in s.as_bytes() {
        match b {
            b'(' | b'[' | b'{' | b'<' => depth += 1,
            b')' | b']' | b'}' | b'>' => depth -= 1,
            _ if b == c && depth == 0 => return true,
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arity_ranges_read_from_prototypes() {
        use Language::*;
        type Case<'a> = (Language, &'a str, &'a str, Option<(u8, u8, bool)>);
        let cases: &[Case] = &[
            (Java, "checkArgument", "public static void checkArgument(boolean expression)", Some((1, 1, false))),
            (Java, "of", "public static <E> ImmutableList<E> of(E e1, E e2, E e3, E e4, E e5, E e6, E e7, E e8, E e9, E e10, E e11, E e12, E... others)", Some((12, 12, true))),
            (Java, "put", "V put(Map<K, V> into, @Nullable K key)", Some((2, 2, false))),
            (Java, "Store", "public Store()", Some((0, 0, false))),
            (Java, "run", "void run(final Function<String, Integer> f, int[] xs)", Some((2, 2, false))),
            (CSharp, "Format", "public static string Format(string format, params object[] args)", Some((1, 1, true))),
            (CSharp, "Add", "public void Add(int a, int b = 0, [CallerMemberName] string c = \"\")", Some((1, 3, false))),
            (CSharp, "Twice", "public static int Twice(this int x, int y)", Some((2, 2, false))),
            (CSharp, "Get", "public T Get<T>(string key) where T : class", Some((1, 1, false))),
            (Cpp, "Put", "Status DB::Put(const WriteOptions& opt, const Slice& key, const Slice& value)", Some((3, 3, false))),
            (Cpp, "Store", "Store::Store(std::map<int, int> m, int n = f(1, 2))", Some((1, 2, false))),
            (Cpp, "size", "size_t size(void) const", Some((0, 0, false))),
            (Cpp, "printf", "int printf(const char* fmt, ...)", Some((1, 1, true))),
            (Cpp, "operator<", "bool operator<(const A& a, const A& b)", None),
            (Java, "missing", "void other(int a)", None),
            (Python, "f", "def f(a, b)", None),
            // An unnamed method's prototype (this looped forever).
            (Cpp, "", "int (int a)", None),
        ];
        for (language, name, prototype, want) in cases {
            let got = arity_range(*language, name, prototype).map(|a| (a.fewest, a.most, a.variadic));
            assert_eq!(got, *want, "{prototype}");
            let extension = arity_range(*language, name, prototype).is_some_and(|a| a.extension);
            assert_eq!(extension, *name == "Twice", "{prototype}");
        }
    }
}
