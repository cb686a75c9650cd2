// Package pane draws the full-screen program's panes: one client's
// schedule, the crowd and its service, retries over time, the jobs and
// their ledger, the settings, the advice (the candidates that meet a
// person's goals), two plans side by side, and the frame around them. A
// pane is a pure function of the data it is given and a width; every
// lipgloss style comes from one Styles, built once.
package pane
