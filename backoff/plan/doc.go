// Package plan reads and writes plans: every setting of a run, the policies
// it compares and the seeds of its spread, in a TOML file with a comment on
// every key. A plan is the program's input, as its flags are; Decode names
// the file, line and rule of whatever it refuses, and Encode writes a plan
// that decodes as itself.
package plan
