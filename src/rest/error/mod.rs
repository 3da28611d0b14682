//! Azure's error codes, one table, and the error value the REST layer renders. Engine errors
//! become these in one place ([`from_engine`]), for both faces: the REST layer renders them as
//! error responses, the JS layer throws them.

mod from_engine;

macro_rules! error_codes {
    ($($code:ident => $status:literal, $message:literal;)*) => {
        /// Every Azure error code this service can answer with.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum ErrorCode { $($code,)* }

        /// The TypeScript union of every code, for the package's `.d.ts` (`QueueError.code`).
        pub const ERROR_CODE_TS: &str = concat!(
            "/** Every error code this package answers or throws with. */\nexport type ErrorCode =",
            $(" | \"", stringify!($code), "\"",)*
            ";\n"
        );

        impl ErrorCode {
            /// The code as it appears in `x-ms-error-code` and `<Code>`.
            pub fn as_str(self) -> &'static str {
                match self { $(ErrorCode::$code => stringify!($code),)* }
            }
            pub fn status(self) -> u16 {
                match self { $(ErrorCode::$code => $status,)* }
            }
            /// The service's own wording for `<Message>`.
            pub fn message(self) -> &'static str {
                match self { $(ErrorCode::$code => $message,)* }
            }
            /// The code named `name` exactly as [`as_str`](Self::as_str) writes it, if there is one.
            pub fn named(name: &str) -> Option<Self> {
                match name { $(stringify!($code) => Some(ErrorCode::$code),)* _ => None }
            }
        }
    };
}

error_codes! {
    QueueNotFound => 404, "The specified queue does not exist.";
    QueueAlreadyExists => 409, "The specified queue already exists.";
    MessageNotFound => 404, "The specified message does not exist.";
    InvalidMarker => 400, "The specified marker is invalid.";
    RequestBodyTooLarge => 413, "The request body is too large and exceeds the maximum permissible limit.";
    InvalidQueryParameterValue => 400, "Value for one of the query parameters specified in the request URI is invalid.";
    OutOfRangeQueryParameterValue => 400, "One of the query parameters specified in the request URI is outside the permissible range.";
    InvalidXmlDocument => 400, "XML specified is not syntactically valid.";
    InvalidXmlNodeValue => 400, "The value for one of the XML nodes is not in the correct format.";
    OutOfRangeInput => 400, "One of the request inputs is out of range.";
    InvalidResourceName => 400, "The specifed resource name contains invalid characters.";
    InvalidInput => 400, "One of the request inputs is not valid.";
    InvalidUri => 400, "The requested URI does not represent any resource on the server.";
    InvalidHttpVerb => 400, "The HTTP verb specified is invalid - it is not recognized by the server.";
    UnsupportedHttpVerb => 405, "The resource doesn't support specified Http Verb.";
    InvalidHeaderValue => 400, "The value for one of the HTTP headers is not in the correct format.";
    MissingContentLengthHeader => 411, "Content-Length HTTP header is missing.";
    InvalidMetadata => 400, "The metadata specified is invalid. It has characters that are not permitted.";
    EmptyMetadataKey => 400, "The key for one of the metadata key-value pairs is empty.";
    MetadataTooLarge => 400, "The metadata specified exceeds the maximum permissible limit (8KB).";
    Md5Mismatch => 400, "The MD5 value specified in the request did not match with the MD5 value calculated by the server.";
    InvalidMd5 => 400, "The MD5 value specified in the request is invalid. MD5 value must be 128 bits and base64 encoded.";
    MultipleVersionsSpecified => 400, "Request can specify either x-ms-version header or api-version query parameter but not both.";
    AuthenticationFailed => 403, "Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature.";
    InvalidAuthenticationInfo => 400, "Authentication information is not given in the correct format. Check the value of Authorization header.";
    NoAuthenticationInformation => 401, "Server failed to authenticate the request. Please refer to the information in the www-authenticate header.";
    ResourceNotFound => 404, "The specified resource does not exist.";
    AuthorizationFailure => 403, "This request is not authorized to perform this operation.";
    AuthorizationPermissionMismatch => 403, "This request is not authorized to perform this operation using this permission.";
    AuthorizationServiceMismatch => 403, "This request is not authorized to perform this operation using this service.";
    AuthorizationResourceTypeMismatch => 403, "This request is not authorized to perform this operation using this resource type.";
    AuthorizationProtocolMismatch => 403, "This request is not authorized to perform this operation using this protocol.";
    AuthorizationSourceIPMismatch => 403, "This request is not authorized to perform this operation using this source IP.";
    CorsPreflightFailure => 403, "CORS not enabled or no matching rule found for this request.";
    InternalError => 500, "Server encountered an internal error. Please try again after some time.";
    // What Azure answers when it timed out, possibly after the operation took effect; here
    // only a fault rule answers it.
    OperationTimedOut => 500, "The operation could not be completed within the permitted time.";
    // Azure's wording for a partition that cannot keep up: what the SDKs retry with backoff.
    ServerBusy => 503, "The server is currently unable to receive requests. Please retry your request.";
    // This service's own codes (the JS `QueueService.open()`), not Azure's.
    StoreLocked => 409, "The store is in use: another tab or worker holds its lock.";
    StoreUnavailable => 503, "The store could not be opened here.";
}

/// An error on its way to the wire: a code, optionally Azure's alternative wording, and the
/// extra elements that follow `<Message>` in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RestError {
    pub code: ErrorCode,
    pub message: Option<&'static str>,
    pub details: Vec<(&'static str, String)>,
    /// The status when Azure answers this code with another than its usual one (a refused
    /// bearer token is `401 InvalidAuthenticationInfo`; a malformed header is `400`).
    pub status: Option<u16>,
    /// Response headers the error carries besides the usual ones (`WWW-Authenticate`).
    pub headers: Vec<(&'static str, String)>,
}

impl From<ErrorCode> for RestError {
    fn from(code: ErrorCode) -> Self {
        RestError {
            code,
            message: None,
            details: Vec::new(),
            status: None,
            headers: Vec::new(),
        }
    }
}

impl RestError {
    pub fn new(code: ErrorCode) -> Self {
        code.into()
    }

    /// Appends one detail element (`<name>value</name>`).
    pub fn with(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.details.push((name, value.into()));
        self
    }

    /// Replaces the standard `<Message>` text with another of Azure's wordings.
    pub fn worded(mut self, message: &'static str) -> Self {
        self.message = Some(message);
        self
    }

    /// Answers with `status` instead of the code's usual one.
    pub fn with_status(mut self, status: u16) -> Self {
        self.status = Some(status);
        self
    }

    /// Adds a response header to the error's answer.
    pub fn with_header(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.headers.push((name, value.into()));
        self
    }

    pub fn status(&self) -> u16 {
        self.status.unwrap_or(self.code.status())
    }

    /// `400 InvalidQueryParameterValue` with name, value and reason.
    pub fn invalid_query(name: &str, value: &str, reason: &str) -> Self {
        RestError::new(ErrorCode::InvalidQueryParameterValue)
            .with("QueryParameterName", name)
            .with("QueryParameterValue", value)
            .with("Reason", reason)
    }

    /// `400 OutOfRangeQueryParameterValue` with name, value and the allowed range.
    pub fn query_out_of_range(name: &str, value: &str, min: i64, max: i64) -> Self {
        RestError::new(ErrorCode::OutOfRangeQueryParameterValue)
            .with("QueryParameterName", name)
            .with("QueryParameterValue", value)
            .with("MinimumAllowed", min.to_string())
            .with("MaximumAllowed", max.to_string())
    }

    /// `400 InvalidXmlDocument` for a body that is not well-formed XML or not the document
    /// the operation reads. (The service sometimes sends an empty `Reason`; an empty reason
    /// leaves a client's developer with nothing to go on, so ours always says something.)
    pub fn invalid_xml() -> Self {
        RestError::invalid_xml_because(
            "The request body is not well-formed XML or is not the document this operation reads.",
        )
    }

    /// `400 InvalidXmlDocument` at line and position 0 with a specific, non-empty reason.
    pub fn invalid_xml_because(reason: impl Into<String>) -> Self {
        RestError::new(ErrorCode::InvalidXmlDocument)
            .with("LineNumber", "0")
            .with("LinePosition", "0")
            .with("Reason", reason)
    }

    /// `403 AuthenticationFailed` with a detail (never containing a key or expected signature).
    pub fn auth_failed(detail: impl Into<String>) -> Self {
        RestError::new(ErrorCode::AuthenticationFailed).with("AuthenticationErrorDetail", detail)
    }

    /// `413 RequestBodyTooLarge` with the limit that was exceeded.
    pub fn too_large(limit: usize) -> Self {
        RestError::new(ErrorCode::RequestBodyTooLarge).with("MaxLimit", limit.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorCode;

    #[test]
    fn a_code_is_found_by_the_name_it_is_written_with_and_by_no_other() {
        for code in [
            ErrorCode::ServerBusy,
            ErrorCode::InternalError,
            ErrorCode::QueueNotFound,
            ErrorCode::AuthenticationFailed,
        ] {
            assert_eq!(ErrorCode::named(code.as_str()), Some(code));
        }
        assert_eq!(ErrorCode::named("serverbusy"), None);
        assert_eq!(ErrorCode::named(""), None);
    }
}
