//! Why service properties were refused: the one error of both `properties.rs` (logging,
//! metrics, retention) and `cors.rs` (CORS rules), in a file of its own so that neither of
//! those imports the other.

/// Why service properties were refused. Named after the service's XML, since that is how the
/// service reports them whichever face they came from.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PropertiesError {
    /// A value the element cannot hold (`InvalidXmlNodeValue`): its element and the value as
    /// given.
    #[error("`{value}` is not a valid {element}")]
    BadValue {
        element: &'static str,
        value: String,
    },
    /// A number of the right form outside its range (`OutOfRangeInput`): retention days outside
    /// 1..=365, a negative CORS max age.
    #[error("a value is out of range")]
    OutOfRange,
    /// The rest are the document's shape (`InvalidXmlDocument`), worded as the service words
    /// them.
    #[error("Element Days is only expected when RetentionPolicy is enabled.")]
    DaysWhileDisabled,
    #[error("Element Days is required when RetentionPolicy is enabled.")]
    DaysRequired,
    #[error("Element IncludeAPIs is required when Metrics is enabled.")]
    IncludeApisRequired,
    #[error("At most 5 CorsRule elements are allowed.")]
    TooManyCorsRules,
    #[error("CORS rules exceed the 2 KiB size limit.")]
    CorsTooLarge,
}
