package main

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant"
)

func main() {
	r := variant.MustDefault()
	v, err := r.Get(os.Args[1])
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	p := v.Start()
	if len(os.Args) > 3 {
		p, err = v.ParseFEN(os.Args[3])
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
	}
	d, _ := strconv.Atoi(os.Args[2])
	t := time.Now()
	n := rules.Perft(p, d)
	el := time.Since(t)
	fmt.Println(n, el, float64(n)/el.Seconds())
}
