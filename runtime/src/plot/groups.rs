//! `scatter(x, y, c=groups)`: matplotlib's habit of colouring points by a
//! label array (`plt.scatter(x, y, c=labels)`), drawn as one series per
//! distinct value of `c` (in increasing order, each its own colour and
//! legend entry), so k-means clusters or classes show at a glance.

use super::data::check;
use super::figure::Series;
use crate::error::{Error, Result};

/// The most groups `c=` may make: each is a colour and a legend entry.
const MOST_GROUPS: usize = 64;

/// A value of `c` as a legend label: integers without a fraction.
fn label_of(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// The points `(x[i], y[i])` split by the value of `c[i]`, labelled by
/// `names` (one per distinct value) or by the values themselves.
pub fn split(
    f: &str,
    x: &[f64],
    y: &[f64],
    c: &[f64],
    names: Option<Vec<String>>,
) -> Result<Vec<Series>> {
    check(f, "c", c)?;
    if c.len() != y.len() {
        return Err(
            Error::shape(f, format!("c has {} values but y has {}", c.len(), y.len()))
                .with_help("give one group value per point, e.g. c=labels"),
        );
    }
    let mut keys: Vec<f64> = c.to_vec();
    keys.sort_by(f64::total_cmp);
    keys.dedup();
    if keys.len() > MOST_GROUPS {
        return Err(Error::value(format!(
            "{f}(): c= has {} distinct values; at most {MOST_GROUPS} groups can be told apart",
            keys.len()
        ))
        .with_help("c= colours points by a small number of labels (cluster or class numbers)"));
    }
    if let Some(n) = &names
        && n.len() != keys.len()
    {
        return Err(Error::value(format!(
            "{f}(): {} labels for the {} distinct values of c",
            n.len(),
            keys.len()
        ))
        .with_help("give one label per distinct value of c, in increasing order of the values"));
    }
    let mut series: Vec<Series> = keys
        .iter()
        .enumerate()
        .map(|(k, &v)| Series {
            label: Some(names.as_ref().map_or_else(|| label_of(v), |n| n[k].clone())),
            x: Vec::new(),
            y: Vec::new(),
        })
        .collect();
    for ((&xi, &yi), &ci) in x.iter().zip(y).zip(c) {
        let k = keys.partition_point(|&v| v < ci);
        series[k].x.push(xi);
        series[k].y.push(yi);
    }
    Ok(series)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_go_to_their_group_in_increasing_order() {
        let s = split(
            "scatter",
            &[1.0, 2.0, 3.0, 4.0],
            &[5.0, 6.0, 7.0, 8.0],
            &[2.0, 0.0, 2.0, 1.5],
            None,
        )
        .unwrap();
        let got: Vec<(Option<String>, Vec<f64>, Vec<f64>)> =
            s.into_iter().map(|s| (s.label, s.x, s.y)).collect();
        assert_eq!(
            got,
            vec![
                (Some("0".into()), vec![2.0], vec![6.0]),
                (Some("1.5".into()), vec![4.0], vec![8.0]),
                (Some("2".into()), vec![1.0, 3.0], vec![5.0, 7.0]),
            ]
        );
    }

    #[test]
    fn bad_groups_are_errors() {
        let e = split("scatter", &[1.0, 2.0], &[1.0, 2.0], &[0.0], None).unwrap_err();
        assert!(
            e.message.contains("c has 1 values but y has 2"),
            "{}",
            e.message
        );
        let e = split(
            "scatter",
            &[1.0],
            &[1.0],
            &[0.0],
            Some(vec!["a".into(), "b".into()]),
        )
        .unwrap_err();
        assert!(
            e.message.contains("2 labels for the 1 distinct values"),
            "{}",
            e.message
        );
    }
}
