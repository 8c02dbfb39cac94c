// Package redacttest is a catalogue of secret shapes for tests: each entry
// is a key and value as they appear in prod configuration, and the part
// that must never be written anywhere. The values are made up.
package redacttest

// Secret is one shape.
type Secret struct {
	Name   string // what shape it is
	Key    string // the conf key or environment variable it sits under
	Value  string // the whole value as prod has it
	Secret string // the part that must not appear in any output
}

// Catalogue holds the shapes devenv must redact.
var Catalogue = []Secret{
	// by key name
	{"password key", "spark.hadoop.javax.jdo.option.ConnectionPassword", "Hunter2hunter2", "Hunter2hunter2"},
	{"s3a secret key", "spark.hadoop.fs.s3a.secret.key", "wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY"},
	{"s3a access key", "spark.hadoop.fs.s3a.access.key", "AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"},
	{"redis auth", "spark.redis.auth", "r3d1s-s3cr3t-v4lue", "r3d1s-s3cr3t-v4lue"},
	{"azure account key", "spark.hadoop.fs.azure.account.key.acct.blob.core.windows.net", "q83bZ1a9cXHt0d5Vb2Nf0Lr7zK3wXy9tPq4sR6uV8wY2aB5cD7eF9gH1iJ3kL5mN7oP9qR1sT3uV5wX7yZ9aB1cD==", "q83bZ1a9cXHt0d5Vb2Nf0Lr7zK3wXy9tPq4sR6uV8wY2aB5cD7eF9gH1iJ3kL5mN7oP9qR1sT3uV5wX7yZ9aB1cD"},
	{"sas token key", "spark.hadoop.fs.azure.sas.container.acct.blob.core.windows.net", "sv=2022-11-02&ss=b&srt=co&sp=rl&se=2027-01-01&sig=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA%3D", "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA"},
	{"oauth client secret", "spark.hadoop.fs.azure.account.oauth2.client.secret", "Abc8Q~xYz123-secretvalue_q", "Abc8Q~xYz123-secretvalue_q"},
	{"gcs private key", "spark.hadoop.google.cloud.auth.service.account.private.key", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"},
	{"authenticate secret", "spark.authenticate.secret", "sp4rk-4uth-s3cr3t", "sp4rk-4uth-s3cr3t"},
	{"ssl keystore password", "spark.ssl.keyStorePassword", "k3yst0r3pw", "k3yst0r3pw"},
	{"snowflake password", "spark.snowflake.sfPassword", "Sn0wfl4k3Pw!", "Sn0wfl4k3Pw!"},
	{"env NGC key", "NGC_API_KEY", "bmdjLWtleS1mb3ItdGVzdHMtb25seS0xMjM0NTY3ODkw", "bmdjLWtleS1mb3ItdGVzdHMtb25seS0xMjM0NTY3ODkw"},
	{"env Databricks token", "DATABRICKS_TOKEN", "dapi0123456789abcdef0123456789abcdef", "dapi0123456789abcdef0123456789abcdef"},
	{"env Snowflake password", "SNOWFLAKE_PASSWORD", "sn0w-env-pw-77", "sn0w-env-pw-77"},
	{"env AWS secret", "AWS_SECRET_ACCESS_KEY", "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY", "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"},
	{"env PAT", "GIT_PAT", "patvalue-8f7e6d5c4b3a", "patvalue-8f7e6d5c4b3a"},
	{"env DB pwd", "DB_PWD", "pwdvalue-1a2b3c", "pwdvalue-1a2b3c"},
	{"high-entropy key", "spark.custom.service.key", "Xk9vQ2mL7pR4tW8zB3nH6yJ1", "Xk9vQ2mL7pR4tW8zB3nH6yJ1"},
	// by value, under harmless keys
	{"URL with user:pass", "spark.sql.catalog.remote.uri", "https://etl:Url-Pa55word@warehouse.example.com/api", "Url-Pa55word"},
	{"jar URL with credentials", "spark.jars", "https://deploy:J4rRep0Pw@repo.example.com/libs/udfs.jar", "J4rRep0Pw"},
	{"MongoDB URI", "spark.mongodb.read.connection.uri", "mongodb+srv://app:M0ng0Pa55@cluster0.example.net/db?retryWrites=true", "M0ng0Pa55"},
	{"postgres JDBC password param", "spark.datasource.url", "jdbc:postgresql://db.example.com:5432/prod?user=etl&password=PgPa55w0rd", "PgPa55w0rd"},
	{"sqlserver JDBC password", "spark.datasource.mssql", "jdbc:sqlserver://db.example.com;user=etl;password=Mssql!Pw9;encrypt=true", "Mssql!Pw9"},
	{"query auth param", "spark.custom.endpoint", "https://api.example.com/v1/ingest?auth=QueryAuthValue123&x=1", "QueryAuthValue123"},
	{"query token param", "spark.custom.webhook", "https://hooks.example.com/notify?token=QueryTokenValue456", "QueryTokenValue456"},
	{"JVM -D secretKey", "spark.driver.extraJavaOptions", "-Xss4m -Dcom.example.secretKey=JvmS3cr3tK3y -XX:+UseG1GC", "JvmS3cr3tK3y"},
	{"JVM -D api.key", "spark.executor.extraJavaOptions", "-Dapi.key=JvmApiKeyValue99 -Dfile.encoding=UTF-8", "JvmApiKeyValue99"},
	{"JVM pwd=", "spark.executor.extraJavaOptions", "-Dlog4j.configuration=log4j.properties pwd=PlainPwdValue7", "PlainPwdValue7"},
	{"JVM pat=", "spark.driver.extraJavaOptions", "-Dx=1 pat=PatInOptions0011", "PatInOptions0011"},
	{"Bearer token", "spark.custom.headers", "Authorization: Bearer abcDEF123ghiJKL456mnoPQR", "abcDEF123ghiJKL456mnoPQR"},
	{"Basic auth header", "spark.custom.headers2", "Authorization: Basic ZXRsOnBhc3N3b3JkMTIz", "ZXRsOnBhc3N3b3JkMTIz"},
	{"Azure connection string", "spark.eventhubs.connection", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=c2VjcmV0YWNjb3VudGtleXZhbHVlMTIzNDU2Nzg5MA==;EndpointSuffix=core.windows.net", "c2VjcmV0YWNjb3VudGtleXZhbHVlMTIzNDU2Nzg5MA"},
	{"Azure SAS URL", "spark.custom.blob", "https://acct.blob.core.windows.net/c/f.csv?sv=2022-11-02&sr=b&sig=U2FzU2lnbmF0dXJlVmFsdWUxMjM0NQ%3D%3D", "U2FzU2lnbmF0dXJlVmFsdWUxMjM0NQ"},
	{"AWS key id in value", "spark.custom.creds", "id=AKIAZZZZZZZZZZZZZZZZ", "AKIAZZZZZZZZZZZZZZZZ"},
	{"Databricks PAT in value", "spark.custom.dbx", "host=https://x.cloud.databricks.com dapiabcdefabcdefabcdefabcdefabcdefab", "dapiabcdefabcdefabcdefabcdefabcdefab"},
	{"NGC nvapi key in value", "spark.custom.ngc", "key nvapi-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "nvapi-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"},
	{"GitHub token", "spark.custom.gh", "ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"},
	{"GitLab token", "spark.custom.gl", "glpat-AbCdEfGhIjKlMnOpQrSt", "glpat-AbCdEfGhIjKlMnOpQrSt"},
	{"Slack token", "spark.custom.slack", "xoxb-123456789012-abcdefABCDEF", "xoxb-123456789012-abcdefABCDEF"},
	{"Google API key", "spark.custom.maps", "AIzaSyA1234567890abcdefghijklmnopqrstuv", "AIzaSyA1234567890abcdefghijklmnopqrstuv"},
	{"JWT", "spark.custom.session", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXZhbHVl", "c2lnbmF0dXJlLXZhbHVl"},
	{"Hugging Face token", "spark.custom.hf", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345"},
	{"Stripe key", "spark.custom.billing", "sk_live_AbCdEfGhIjKlMnOpQr12", "sk_live_AbCdEfGhIjKlMnOpQr12"},
	{"private key block", "spark.custom.pem", "-----BEGIN RSA PRIVATE KEY-----MIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu-----END RSA PRIVATE KEY-----", "MIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu"},
	{"Databricks secret reference", "spark.custom.ref", "{{secrets/prod/db-password}}", "{{secrets/prod/db-password}}"},
	{"Slack webhook", "spark.custom.alerts", "https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXX", "XXXXXXXXXXXXXXXX"},
}
