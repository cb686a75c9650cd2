// Package report writes the reports the commands print: schedule, crowd
// (one seed, many seeds, or two plans side by side), timeline and jobs, each
// as text, CSV or JSON. The text starts with what --plain writes for the
// same figures (package plain) and adds its own lines after it; CSV and JSON
// carry every figure under MODEL.md's names.
package report
