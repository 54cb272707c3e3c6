//! Distilling a transformer into static token vectors (the model2vec method):
//! every vocabulary token through the network once (`[CLS] token [SEP]`, mean
//! pooled), the vectors reduced by PCA, then each scaled by a smooth inverse
//! frequency weight `a / (a + p(token))`, `p` estimated from the token's rank in
//! the vocabulary (BERT's word pieces are listed by frequency), so that common
//! tokens count little in a mean.

use super::bert::Bert;
use super::wordpiece::WordPiece;

/// The SIF coefficient `a`.
const SIF: f64 = 1e-4;
/// Sequences per forward pass.
const BATCH: usize = 512;

/// One unit vector of `hidden_size` per vocabulary token (zeros for special
/// tokens), row after row. `progress(done, total)` is called after each batch.
pub fn token_vectors(bert: &Bert, vocab: &WordPiece, progress: &dyn Fn(usize, usize)) -> candle_core::Result<Vec<f32>> {
    let h = bert.config.hidden_size;
    let n = vocab.len().min(bert.config.vocab_size);
    let mut out = vec![0f32; n * h];
    let ids: Vec<u32> = (0..n as u32).filter(|&i| !vocab.is_special(i)).collect();
    let mut done = 0;
    for chunk in ids.chunks(BATCH) {
        let batch: Vec<Vec<u32>> = chunk.iter().map(|&id| vec![vocab.cls, id, vocab.sep]).collect();
        let vectors = bert.embed(&batch, vocab.pad)?;
        for (&id, v) in chunk.iter().zip(vectors) {
            out[id as usize * h..(id as usize + 1) * h].copy_from_slice(&v);
        }
        done += chunk.len();
        progress(done, ids.len());
    }
    Ok(out)
}

/// Reduces `rows` (`n × dims`, zero rows left out of the fit and kept zero) to
/// their first `k` principal components, then weights them by rank.
pub fn reduce_and_weight(rows: &[f32], dims: usize, k: usize) -> Vec<f32> {
    let n = rows.len() / dims;
    let live: Vec<usize> = (0..n).filter(|&i| rows[i * dims..(i + 1) * dims].iter().any(|&x| x != 0.0)).collect();
    let k = k.min(dims);
    let (mean, components) = pca(rows, dims, &live, k);
    // Rank among the real tokens, in vocabulary order.
    let harmonic: f64 = (0..live.len()).map(|r| 1.0 / (r as f64 + 2.0)).sum();
    let mut out = vec![0f32; n * k];
    for (rank, &i) in live.iter().enumerate() {
        let p = (1.0 / (rank as f64 + 2.0)) / harmonic;
        let w = SIF / (SIF + p);
        let row = &rows[i * dims..(i + 1) * dims];
        for c in 0..k {
            let comp = &components[c * dims..(c + 1) * dims];
            let mut s = 0f64;
            for d in 0..dims {
                s += (row[d] as f64 - mean[d]) * comp[d];
            }
            out[i * k + c] = (s * w) as f32;
        }
    }
    out
}

/// The mean of the `live` rows and the `k` eigenvectors of their covariance
/// with the largest eigenvalues (row after row, each of `dims`).
fn pca(rows: &[f32], dims: usize, live: &[usize], k: usize) -> (Vec<f64>, Vec<f64>) {
    let mut mean = vec![0f64; dims];
    for &i in live {
        for (m, &x) in mean.iter_mut().zip(&rows[i * dims..(i + 1) * dims]) {
            *m += x as f64;
        }
    }
    let count = live.len().max(1) as f64;
    mean.iter_mut().for_each(|m| *m /= count);
    let mut cov = vec![0f64; dims * dims];
    let mut centred = vec![0f64; dims];
    for &i in live {
        for d in 0..dims {
            centred[d] = rows[i * dims + d] as f64 - mean[d];
        }
        for a in 0..dims {
            let ca = centred[a];
            let row = &mut cov[a * dims..a * dims + a + 1];
            for (b, c) in row.iter_mut().enumerate() {
                *c += ca * centred[b];
            }
        }
    }
    for a in 0..dims {
        for b in 0..a {
            cov[b * dims + a] = cov[a * dims + b];
        }
    }
    let (values, vectors) = jacobi_eigen(cov, dims);
    let mut order: Vec<usize> = (0..dims).collect();
    order.sort_by(|&a, &b| values[b].total_cmp(&values[a]).then(a.cmp(&b)));
    let mut components = Vec::with_capacity(k * dims);
    for &c in order.iter().take(k) {
        // Column c of the eigenvector matrix; its sign made deterministic.
        let mut v: Vec<f64> = (0..dims).map(|d| vectors[d * dims + c]).collect();
        let big = v.iter().copied().fold(0f64, |m, x| if x.abs() > m.abs() { x } else { m });
        if big < 0.0 {
            v.iter_mut().for_each(|x| *x = -*x);
        }
        components.extend(v);
    }
    (mean, components)
}

/// Eigenvalues and eigenvectors (columns) of a symmetric matrix, by cyclic
/// Jacobi rotations.
pub fn jacobi_eigen(mut a: Vec<f64>, n: usize) -> (Vec<f64>, Vec<f64>) {
    let mut v = vec![0f64; n * n];
    for i in 0..n {
        v[i * n + i] = 1.0;
    }
    let norm: f64 = a.iter().map(|x| x * x).sum::<f64>().sqrt().max(f64::MIN_POSITIVE);
    for _sweep in 0..60 {
        let off: f64 = (0..n)
            .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[i * n + j] * a[i * n + j])
            .sum::<f64>()
            .sqrt();
        if off <= 1e-12 * norm {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = a[p * n + q];
                if apq.abs() <= 1e-300 {
                    continue;
                }
                let (app, aqq) = (a[p * n + p], a[q * n + q]);
                let theta = (aqq - app) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..n {
                    let (akp, akq) = (a[k * n + p], a[k * n + q]);
                    a[k * n + p] = c * akp - s * akq;
                    a[k * n + q] = s * akp + c * akq;
                }
                for k in 0..n {
                    let (apk, aqk) = (a[p * n + k], a[q * n + k]);
                    a[p * n + k] = c * apk - s * aqk;
                    a[q * n + k] = s * apk + c * aqk;
                }
                for k in 0..n {
                    let (vkp, vkq) = (v[k * n + p], v[k * n + q]);
                    v[k * n + p] = c * vkp - s * vkq;
                    v[k * n + q] = s * vkp + c * vkq;
                }
            }
        }
    }
    ((0..n).map(|i| a[i * n + i]).collect(), v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jacobi_matches_a_known_decomposition() {
        // [[2,1],[1,2]]: eigenvalues 3 and 1, eigenvectors (1,1)/√2 and (1,-1)/√2.
        let (values, vectors) = jacobi_eigen(vec![2.0, 1.0, 1.0, 2.0], 2);
        let mut sorted = values.clone();
        sorted.sort_by(f64::total_cmp);
        assert!((sorted[0] - 1.0).abs() < 1e-9 && (sorted[1] - 3.0).abs() < 1e-9, "{values:?}");
        let big = if values[0] > values[1] { 0 } else { 1 };
        let (x, y) = (vectors[big], vectors[2 + big]);
        assert!((x.abs() - y.abs()).abs() < 1e-9 && x * y > 0.0);
        // A x = λ x for every pair, on a random symmetric matrix.
        let n = 6;
        let mut m = vec![0f64; n * n];
        let mut seed = 7u64;
        for i in 0..n {
            for j in 0..=i {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let x = (seed >> 33) as f64 / (1u64 << 31) as f64 - 0.5;
                m[i * n + j] = x;
                m[j * n + i] = x;
            }
        }
        let (values, vectors) = jacobi_eigen(m.clone(), n);
        for c in 0..n {
            for i in 0..n {
                let av: f64 = (0..n).map(|j| m[i * n + j] * vectors[j * n + c]).sum();
                assert!((av - values[c] * vectors[i * n + c]).abs() < 1e-8);
            }
        }
    }

    #[test]
    fn pca_finds_the_direction_of_most_variance() {
        // Points along (3, 4)/5 with a little noise across.
        let mut rows = Vec::new();
        for i in 0..50 {
            let t = i as f32 - 25.0;
            let across = if i % 2 == 0 { 0.1 } else { -0.1 };
            rows.extend([0.6 * t - 0.8 * across, 0.8 * t + 0.6 * across]);
        }
        let live: Vec<usize> = (0..50).collect();
        let (_, c) = pca(&rows, 2, &live, 1);
        assert!((c[0] - 0.6).abs() < 1e-3 && (c[1] - 0.8).abs() < 1e-3, "{c:?}");
    }
}
