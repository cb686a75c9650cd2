// Package picture draws the crowd's figures and the retries over time as
// SVG or PNG pictures for design documents, with gonum/plot: a panel per
// policy, the outage and the service's capacity marked.
package picture
