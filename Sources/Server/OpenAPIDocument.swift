import NIOCore

/// The API's OpenAPI 3.1 document, served at /api/v1/openapi.json: the file
/// `Resources/openapi.json` (written by `Scripts/openapi.py`), embedded in the binary.
enum OpenAPIDocument {
    static let bytes = ByteBuffer(bytes: PackageResources.openapi_json)
}
