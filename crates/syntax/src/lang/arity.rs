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
    let b = prototype.as_bytes();
    let open = parameters_open(name, prototype)?;
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

/// Where the parameter list of the method `name` opens in its prototype:
/// the name's first occurrence followed by `(` (C#'s generic `M<T>(..)` and
/// C++'s `A::m(..)` included).
fn parameters_open(name: &str, prototype: &str) -> Option<usize> {
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
    open
}

/// The type a C# extension method named `name` extends, read from its
/// prototype: its `this` parameter's type as a plain name (`this
/// IEnumerable<T> xs` is `IEnumerable`, `this System.String s` `String`),
/// and whether that is a type parameter of the method (`Or<T>(this T x)`).
/// `None` when the first parameter is no `this` one.
pub fn csharp_extended_type(prototype: &str, name: &str) -> Option<(String, bool)> {
    if name.is_empty() {
        return None;
    }
    let open = parameters_open(name, prototype)?;
    let mut first = prototype[open + 1..].trim_start();
    while let Some(rest) = first.strip_prefix('[') {
        first = rest.split_once(']').map_or("", |(_, after)| after.trim_start());
    }
    let ty = first.strip_prefix("this")?.strip_prefix(char::is_whitespace)?.trim_start();
    // The type ends at the first space, comma or `)` outside brackets.
    let mut depth = 0i32;
    let end = ty
        .char_indices()
        .find(|&(_, c)| {
            match c {
                '<' | '[' | '(' => depth += 1,
                '>' | ']' => depth -= 1,
                ')' if depth == 0 => return true,
                ')' => depth -= 1,
                ',' if depth == 0 => return true,
                c if c.is_whitespace() && depth == 0 => return true,
                _ => {}
            }
            false
        })
        .map_or(ty.len(), |(i, _)| i);
    let ty = &ty[..end];
    let plain = ty.split(['<', '[', '?']).next().unwrap_or(ty);
    let plain = plain.rsplit(['.', ':']).next().unwrap_or(plain).trim();
    if plain.is_empty() {
        return None;
    }
    // The method's type parameters: between its name and the parameters.
    let head = &prototype[..open];
    let generic = head
        .rfind(name)
        .map(|i| &head[i + name.len()..])
        .and_then(|g| g.trim().strip_prefix('<'))
        .is_some_and(|g| g.trim_end().trim_end_matches('>').split(',').any(|p| p.trim() == plain));
    Some((plain.to_string(), generic))
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
    fn extended_types_read_from_prototypes() {
        type Case<'a> = (&'a str, &'a str, Option<(&'a str, bool)>);
        let cases: &[Case] = &[
            ("public static bool IsCustomTaskType (this TypeSpec type)", "IsCustomTaskType", Some(("TypeSpec", false))),
            ("static IEnumerable<T> Skip<T>(this IEnumerable<T> xs, int n)", "Skip", Some(("IEnumerable", false))),
            ("public static T Or<T>(this T x, T y) where T : class", "Or", Some(("T", true))),
            ("static int Len(this System.String s)", "Len", Some(("String", false))),
            ("static int Len([NotNull] this string? s)", "Len", Some(("string", false))),
            ("static V Get<K, V>(this Dictionary<K, V> d, K k)", "Get", Some(("Dictionary", false))),
            ("static int Sum(this int[] xs)", "Sum", Some(("int", false))),
            ("static int Twice(int x)", "Twice", None),
            ("static int thisOne(thisType x)", "thisOne", None),
            ("static int Other(this int x)", "Missing", None),
        ];
        for (prototype, name, want) in cases {
            let got = csharp_extended_type(prototype, name);
            assert_eq!(got.as_ref().map(|(t, g)| (t.as_str(), *g)), *want, "{prototype}");
        }
    }

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
