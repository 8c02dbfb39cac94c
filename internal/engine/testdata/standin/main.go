// Command standin is a tiny static program the engine tests put in an image
// FROM scratch, in place of a real service.
//
//	standin serve ADDR   listen on ADDR, greet every connection, log to stdout and stderr
//	standin health ADDR  exit 0 when ADDR accepts connections, else 1
//	standin cat FILE     print FILE
//	standin stat PATH    print PATH's permission bits (octal) and owner, "600 1000:1000"
//	standin env NAME     print the value of NAME
//	standin echo WORDS   print WORDS
//	standin exit CODE    exit with CODE
package main

import (
	"fmt"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: standin serve|health|cat|stat|env|echo|exit ARG")
		os.Exit(2)
	}
	arg := os.Args[2]
	switch os.Args[1] {
	case "serve":
		serve(arg)
	case "health":
		c, err := net.DialTimeout("tcp", arg, time.Second)
		if err != nil {
			os.Exit(1)
		}
		c.Close()
	case "cat":
		b, err := os.ReadFile(arg)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Stdout.Write(b)
	case "stat":
		fi, err := os.Stat(arg)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		st := fi.Sys().(*syscall.Stat_t)
		fmt.Printf("%o %d:%d\n", fi.Mode().Perm(), st.Uid, st.Gid)
	case "env":
		fmt.Println(os.Getenv(arg))
	case "echo":
		fmt.Println(strings.Join(os.Args[2:], " "))
	case "exit":
		code, _ := strconv.Atoi(arg)
		os.Exit(code)
	default:
		fmt.Fprintf(os.Stderr, "unknown command %q\n", os.Args[1])
		os.Exit(2)
	}
}

func serve(addr string) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	go func() { <-sig; os.Exit(0) }()
	fmt.Println("standin ready on", addr)
	fmt.Fprintln(os.Stderr, "standin stderr line")
	for {
		c, err := l.Accept()
		if err != nil {
			continue
		}
		fmt.Fprintln(c, "hello from standin")
		c.Close()
	}
}
