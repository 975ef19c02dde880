package report

import "strings"

// The writers' string replacers, built once: a Replacer builds its lookup tables on first
// use, which costs more than the replacing when one is made per string written. Each is
// never written after init and is safe for concurrent use.
var (
	lineBreaks       = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")                            //nolint:gochecknoglobals // read-only, see above
	dataEscaper      = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")                         //nolint:gochecknoglobals // read-only, see above
	propertyEscaper  = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C") //nolint:gochecknoglobals // read-only, see above
	xmlEscaper       = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")                       //nolint:gochecknoglobals // read-only, see above
	sarifLinkEscaper = strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`)                              //nolint:gochecknoglobals // read-only, see above
	uriEscaper       = strings.NewReplacer("%", "%25", " ", "%20", "#", "%23", "?", "%3F")               //nolint:gochecknoglobals // read-only, see above
)
